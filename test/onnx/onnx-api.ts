/** The public API under test, imported the way users import it. */
export * from '../../src/onnx/index.js';
export * from '../../src/onnx/ops/all.js';
