import { RemoteError } from '../remote-error.js';

/**
 * The error codes a server answers with. The first seven are OpenEnv's; `PAYLOAD_TOO_LARGE`,
 * `UNAUTHORIZED` and `NOT_FOUND` are this server's additions for limits it enforces that
 * OpenEnv does not (OpenEnv clients treat any unknown code as a generic error).
 */
export const ERROR_CODES = [
  'INVALID_JSON',
  'UNKNOWN_TYPE',
  'VALIDATION_ERROR',
  'EXECUTION_ERROR',
  'CAPACITY_REACHED',
  'FACTORY_ERROR',
  'SESSION_ERROR',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHORIZED',
  'NOT_FOUND',
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The HTTP status each error code maps to on the HTTP routes. */
export const HTTP_STATUS_OF: Readonly<Record<ErrorCode, number>> = {
  INVALID_JSON: 400,
  UNKNOWN_TYPE: 400,
  VALIDATION_ERROR: 422,
  EXECUTION_ERROR: 500,
  CAPACITY_REACHED: 503,
  FACTORY_ERROR: 500,
  SESSION_ERROR: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
};

/** One entry of a 422 answer's `detail` list, in FastAPI's shape so OpenEnv clients parse it. */
export interface ValidationDetail {
  /** Where the problem is, e.g. `['body', 'action', 'arguments']`. */
  loc: (string | number)[];
  /** What is wrong and what to send instead. */
  msg: string;
  /** A short machine-readable kind, e.g. `missing`, `type_error`, `value_error`. */
  type: string;
}

/**
 * A protocol-level failure with its wire code. Thrown inside the server and turned into an
 * HTTP status + body or a WebSocket `error` frame; rebuilt on the client from an error frame.
 *
 * @example
 * ```ts
 * throw new ProtocolError('SESSION_ERROR', 'call reset before step', { reason: 'reset_needed' });
 * ```
 */
export class ProtocolError extends RemoteError {
  override readonly name = 'ProtocolError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields sent beside `message` and `code` (e.g. `errors`, `active_sessions`). */
    readonly extra: Record<string, unknown> = {},
    /** For `VALIDATION_ERROR`: the 422 `detail` list. */
    readonly details: ValidationDetail[] = [],
  ) {
    super(message);
  }

  /** The HTTP status this error is answered with. */
  get httpStatus(): number {
    return HTTP_STATUS_OF[this.code];
  }

  /** The `data` of a WebSocket error frame: `{ message, code, ...extra }` (an HTTP `status` override stays out). */
  toWire(): Record<string, unknown> {
    const { status: _status, ...extra } = this.extra;
    const wire: Record<string, unknown> = { message: this.message, code: this.code, ...extra };
    if (this.details.length > 0) wire.errors = this.details.map((d) => `${d.loc.join('.')}: ${d.msg}`);
    return wire;
  }
}

/**
 * A `VALIDATION_ERROR` built from a detail list (its message joins the details).
 *
 * @example
 * ```ts
 * throw validationError([{ loc: ['body', 'seed'], msg: 'seed must be an integer ≥ 0', type: 'value_error' }]);
 * ```
 */
export function validationError(details: ValidationDetail[]): ProtocolError {
  const message = details.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
  return new ProtocolError('VALIDATION_ERROR', message, {}, details);
}

/**
 * Whether `code` is a known {@link ErrorCode}.
 *
 * @example
 * ```ts
 * isErrorCode('CAPACITY_REACHED'); // true
 * ```
 */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code);
}
