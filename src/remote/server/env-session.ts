import { randomUUID } from 'node:crypto';
import type { Env } from '../../gym/env.js';
import { InvalidResetOptionsError } from '../../gym/invalid-reset-options-error.js';
import { ProtocolError, validationError, type ValidationDetail } from '../protocol/error-codes.js';
import type { WireResetRequest, WireState, WireStepResult, WireTool } from '../protocol/messages.js';
import { parseMcpAction, toolsOf } from './tools.js';

/** How a session treats actions before handing them to the env. */
export type ActionValidation =
  /** The env decides (SQLEnv's tolerant mode turns malformed actions into penalised steps). */
  | 'env'
  /** Reject actions outside the env's action space with `VALIDATION_ERROR` (HTTP 422). */
  | 'space';

/** Hooks the server uses to count what a session does. */
export interface SessionObserver {
  onReset(): void;
  onStep(seconds: number, info: Record<string, unknown>): void;
}

/**
 * One client's environment: owns exactly one env, runs its calls one at a time (so a client
 * that pipelines requests cannot interleave two steps), keeps the episode bookkeeping
 * OpenEnv's `state` reports, and converts results to the wire shape. Errors thrown by the env
 * become `EXECUTION_ERROR`s for this session only, except a caller's bad reset options
 * (`InvalidResetOptionsError`), which are `VALIDATION_ERROR`s.
 *
 * @example
 * ```ts
 * const session = new EnvSession(make('GuessNumber-v0'), { envId: 'GuessNumber-v0' });
 * await session.reset({ seed: 1 });
 * await session.step(50);
 * await session.close();
 * ```
 */
export class EnvSession {
  readonly id: string;
  readonly envId: string;
  private episodeId: string | null = null;
  private stepCount = 0;
  private terminated = false;
  private truncated = false;
  private episodeReturn = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private inFlight = 0;
  /** `performance.now()` of the last request, for idle reaping. */
  lastActive = performance.now();

  constructor(
    private readonly env: Env<unknown, unknown>,
    private readonly options: { envId: string; id?: string; validation?: ActionValidation; observer?: SessionObserver },
  ) {
    this.id = options.id ?? randomUUID();
    this.envId = options.envId;
  }

  /** The env's tools (empty unless its action space is a `ToolCallSpace`). */
  get tools(): WireTool[] {
    return toolsOf(this.env.actionSpace);
  }

  /** Whether a request is running or queued. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Start an episode. */
  reset(request: WireResetRequest = {}): Promise<WireStepResult> {
    return this.serialize(async () => {
      const { seed, episode_id: episodeId, options, ...extra } = parseResetRequest(request);
      const [obs, info] = await this.callEnv(() => this.env.reset({ seed, options: { ...extra, ...options } }));
      this.episodeId = episodeId ?? randomUUID();
      this.stepCount = 0;
      this.terminated = false;
      this.truncated = false;
      this.episodeReturn = 0;
      this.options.observer?.onReset();
      return this.withRendering({ observation: obs, reward: null, done: false, terminated: false, truncated: false, info: { ...info } });
    });
  }

  /** Take one action (OpenEnv's MCP `list_tools`/`call_tool` actions included). */
  step(action: unknown): Promise<WireStepResult> {
    return this.serialize(async () => {
      const mcp = parseMcpAction(action);
      if (mcp?.kind === 'list_tools') {
        return { observation: { tools: this.tools }, reward: null, done: this.done, terminated: this.terminated, truncated: this.truncated, info: {} };
      }
      if (this.episodeId === null) {
        throw new ProtocolError('SESSION_ERROR', 'No episode is running in this session: send reset before step.', { reason: 'reset_needed' });
      }
      let envAction = action;
      if (mcp?.kind === 'call_tool') {
        if (this.tools.length === 0) {
          throw validationError([{ loc: ['body', 'action', 'type'], msg: `${this.envId} has no tools; send an action of its action space`, type: 'value_error' }]);
        }
        envAction = { name: mcp.toolName, arguments: mcp.arguments };
      } else if (this.options.validation === 'space' && !this.env.actionSpace.contains(action)) {
        throw validationError(actionDetails(this.env, action));
      }
      const started = performance.now();
      const [obs, reward, terminated, truncated, info] = await this.callEnv(() => this.env.step(envAction));
      this.options.observer?.onStep((performance.now() - started) / 1000, info);
      this.stepCount++;
      this.terminated = terminated;
      this.truncated = truncated;
      this.episodeReturn += reward;
      const done = terminated || truncated;
      const observation = mcp?.kind === 'call_tool' ? toolCallObservation(mcp.toolName, obs, info) : obs;
      return this.withRendering({ observation, reward, done, terminated, truncated, info: { ...info } });
    });
  }

  /** OpenEnv's state object. */
  state(): WireState {
    this.lastActive = performance.now();
    return {
      episode_id: this.episodeId,
      step_count: this.stepCount,
      env_id: this.envId,
      session_id: this.id,
      done: this.done,
      terminated: this.terminated,
      truncated: this.truncated,
      episode_return: this.episodeReturn,
    };
  }

  /**
   * Close the env after any request in flight finishes. Idempotent. Requests still queued are
   * refused; an env that can stop work in flight (SQLEnv's `interrupt()` kills its running
   * query) is told to, so a departed client's runaway query does not run on.
   */
  close(): Promise<void> {
    if (this.closed) return this.queue.then(() => undefined);
    this.closed = true;
    if (this.inFlight > 0) interruptible(this.env)?.interrupt();
    const closing = this.queue.then(() => this.env.close());
    this.queue = closing.catch(() => undefined);
    return closing;
  }

  /** Attach the env's text rendering when it renders to text, so text clients need not re-render. */
  private withRendering(result: WireStepResult): WireStepResult {
    if (this.env.renderMode !== 'ansi') return result;
    const text = this.env.render();
    return typeof text === 'string' ? { ...result, rendered: text } : result;
  }

  private get done(): boolean {
    return this.terminated || this.truncated;
  }

  private serialize<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(this.closedError());
    this.lastActive = performance.now();
    this.inFlight++;
    // A request queued behind others does not start once the session is closed.
    const run = this.queue.then(() => (this.closed ? Promise.reject(this.closedError()) : fn())).finally(() => {
      this.inFlight--;
      this.lastActive = performance.now();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private closedError(): ProtocolError {
    return new ProtocolError('SESSION_ERROR', `Session ${this.id} is closed; open a new one.`, { reason: 'closed' });
  }

  private async callEnv<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toProtocolError(err);
    }
  }
}

/** An env that can stop the work of a step in flight (SQLEnv kills its running query). */
export interface InterruptibleEnv {
  interrupt(): void;
}

/** The env (or the env under its wrappers) if it has `interrupt()`, else undefined. */
function interruptible(env: Env<unknown, unknown>): InterruptibleEnv | undefined {
  const inner = env.unwrapped as Partial<InterruptibleEnv>;
  return typeof inner.interrupt === 'function' ? (inner as InterruptibleEnv) : undefined;
}

/**
 * Map an error thrown by an env to its wire code: reset-order errors are session errors; a
 * caller's bad reset options (an unknown key, question or split) are validation errors (422),
 * the client's to fix; the rest are execution errors.
 */
function toProtocolError(err: unknown): ProtocolError {
  if (err instanceof ProtocolError) return err;
  if (err instanceof InvalidResetOptionsError) {
    return validationError(err.problems.map((p) => ({ loc: ['body', 'options', p.option], msg: p.message, type: 'value_error' })));
  }
  const e = err instanceof Error ? err : new Error(String(err));
  if (e.name === 'ResetNeeded') return new ProtocolError('SESSION_ERROR', e.message, { reason: 'reset_needed' });
  const errors = (e as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.every((x) => typeof x === 'string')) {
    return validationError(errors.map((msg: string) => ({ loc: ['body', 'action'], msg, type: 'value_error' })));
  }
  return new ProtocolError('EXECUTION_ERROR', `${e.name}: ${e.message}`, { error_name: e.name });
}

function parseResetRequest(request: unknown): WireResetRequest {
  if (request === undefined || request === null) return {};
  if (typeof request !== 'object' || Array.isArray(request)) {
    throw validationError([{ loc: ['body'], msg: 'reset takes an object {seed?, episode_id?, options?}', type: 'type_error' }]);
  }
  const r = request as WireResetRequest;
  const details: ValidationDetail[] = [];
  if (r.seed !== undefined && r.seed !== null && !(Number.isSafeInteger(r.seed) && r.seed >= 0)) {
    details.push({ loc: ['body', 'seed'], msg: 'seed must be an integer ≥ 0', type: 'value_error' });
  }
  if (r.episode_id !== undefined && r.episode_id !== null && typeof r.episode_id !== 'string') {
    details.push({ loc: ['body', 'episode_id'], msg: 'episode_id must be a string', type: 'type_error' });
  }
  if (r.options !== undefined && r.options !== null && (typeof r.options !== 'object' || Array.isArray(r.options))) {
    details.push({ loc: ['body', 'options'], msg: 'options must be an object', type: 'type_error' });
  }
  if (details.length > 0) throw validationError(details);
  const { seed, episode_id, options, ...extra } = r;
  return { ...extra, ...(seed != null ? { seed } : {}), ...(episode_id != null ? { episode_id } : {}), ...(options ? { options } : {}) };
}

function actionDetails(env: Env<unknown, unknown>, action: unknown): ValidationDetail[] {
  const validate = (env.actionSpace as { validate?: (a: unknown) => { ok: boolean; errors: string[] } }).validate;
  const errors = typeof validate === 'function' ? validate.call(env.actionSpace, action).errors : [];
  const space = String(env.actionSpace);
  if (errors.length === 0) return [{ loc: ['body', 'action'], msg: `action ${preview(action)} is not in the action space ${space}`, type: 'value_error' }];
  return errors.map((msg) => ({ loc: ['body', 'action'], msg, type: 'value_error' }));
}

/** A short JSON preview of a client's value for messages; never throws (deep, cyclic or bigint values). */
function preview(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    text = Array.isArray(value) ? 'a list nested too deeply to show' : 'a value nested too deeply to show';
  }
  text ??= String(typeof value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** OpenEnv's `call_tool` observation: `{tool_name, result, error?}` with the env's error_type. */
function toolCallObservation(toolName: string, obs: unknown, info: Record<string, unknown>): Record<string, unknown> {
  const errorType = info.error_type;
  if (typeof errorType !== 'string' || errorType === '') return { tool_name: toolName, result: obs };
  const obsError = typeof obs === 'object' && obs !== null ? (obs as Record<string, unknown>).error : undefined;
  const message = typeof info.error_message === 'string' ? info.error_message : typeof obsError === 'string' ? obsError : errorType;
  return { tool_name: toolName, result: obs, error: { error_type: errorType, message } };
}
