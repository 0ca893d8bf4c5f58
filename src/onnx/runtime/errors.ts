/** Errors of the ONNX runtime layer. */
import { OnnxError } from '../onnx-error.js';

/** An execution provider could not be loaded; `hint` says how to make it available. */
export class ProviderUnavailableError extends OnnxError {
  override readonly name = 'ProviderUnavailableError';
  constructor(
    /** The provider that failed ('cuda', 'webgpu', …). */
    readonly provider: string,
    /** onnxruntime's own message. */
    readonly reason: string,
    /** What the user can do about it. */
    readonly hint: string,
  ) {
    super(`execution provider '${provider}' is unavailable: ${reason}\n→ ${hint}`);
  }
}

/** A session was used after `close()`, or a run was given feeds that do not match the graph. */
export class SessionError extends OnnxError {
  override readonly name = 'SessionError';
}
