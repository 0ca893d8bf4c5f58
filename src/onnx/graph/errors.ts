/** Thrown when an op is applied to tensors whose shapes or dtypes do not fit it. */
import { OnnxError } from '../onnx-error.js';
export class ShapeError extends OnnxError {
  override readonly name = 'ShapeError';
  constructor(
    /** The ONNX op being built. */
    readonly op: string,
    message: string,
  ) {
    super(`${op}: ${message}`);
  }
}

/** Thrown for misuse of the graph builder (mixing graphs, unknown outputs, missing gradient rules…). */
export class GraphError extends OnnxError {
  override readonly name = 'GraphError';
}
