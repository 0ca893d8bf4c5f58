import type { JsonRpcRequest, JsonRpcResponse, WireResetRequest, WireState, WireStepResult } from '../protocol/messages.js';
import { RemoteEnvError, SessionLostError } from './remote-env-error.js';
import type { RemoteTransport } from './transport.js';

/** How a client looks for a server when it has none, or lost its own. */
export interface ReconnectOptions {
  /** Tries in all (over the servers in turn) before `reset` gives up with `CONNECTION_ERROR`. Default: 3 per server. */
  attempts?: number;
  /** Wait after the first round of servers that all failed; doubles each round. Default 100 ms. */
  initialDelayMs?: number;
  /** Longest wait between rounds. Default 5 000 ms. */
  maxDelayMs?: number;
}

/** Next start index per server list: consecutive sessions of one process start on consecutive servers. */
const rotation = new Map<string, number>();

function firstServer(urls: readonly string[]): number {
  const key = urls.join('\n');
  const next = rotation.get(key) ?? 0;
  rotation.set(key, next + 1);
  return next % urls.length;
}

/**
 * Whether an error means the session's server is gone — unreachable, restarted (the session is
 * unknown there now) or shutting down — rather than a problem with the request.
 *
 * @example
 * ```ts
 * isSessionLost(new RemoteEnvError('CONNECTION_ERROR', 'socket hang up')); // true
 * ```
 */
export function isSessionLost(err: unknown): err is RemoteEnvError {
  if (!(err instanceof RemoteEnvError)) return false;
  if (err.code === 'CONNECTION_ERROR') return true;
  if (err.code === 'SESSION_ERROR' && err.data.reason === 'unknown_session') return true;
  return err.code === 'CAPACITY_REACHED' && err.data.reason === 'draining';
}

/**
 * One session at a time on one of several servers: `reset` opens it on the next server that
 * takes it (servers in turn, starting where the previous session of this process did, so many
 * sessions spread evenly); a server that cannot be reached or is shutting down is skipped, and
 * after a whole round of failures the next round waits, with exponential backoff and jitter,
 * until `attempts` tries are spent (`CONNECTION_ERROR`). When every server is merely full, the
 * `CAPACITY_REACHED` answer is thrown at once. When the server goes away mid-episode, the call
 * in flight rejects with {@link SessionLostError} (`SESSION_LOST`), and so does every call
 * until the next `reset`, which continues on a live server. Nothing waits longer than the
 * transport's request timeout.
 *
 * @example
 * ```ts
 * const t = new FailoverTransport(['http://a:8000', 'http://b:8000'], (url) => new WsTransport(url, { encoding: 'json' }));
 * await t.reset({ seed: 1 });
 * ```
 */
export class FailoverTransport implements RemoteTransport {
  private current: { url: string; transport: RemoteTransport } | undefined;
  private lost: SessionLostError | undefined;
  private next: number;
  private closed = false;
  private readonly attempts: number;

  constructor(
    private readonly urls: readonly string[],
    private readonly open: (url: string) => RemoteTransport,
    private readonly options: ReconnectOptions = {},
  ) {
    if (urls.length === 0) throw new RangeError('FailoverTransport needs at least one server URL');
    this.next = firstServer(urls);
    this.attempts = Math.max(1, options.attempts ?? 3 * urls.length);
  }

  /** The server of the current session, or the one the next session will try first. */
  get url(): string {
    return this.current?.url ?? this.urls[this.next % this.urls.length]!;
  }

  async reset(request: WireResetRequest): Promise<WireStepResult> {
    this.assertOpen();
    this.lost = undefined;
    if (this.current) {
      try {
        return await this.current.transport.reset(request);
      } catch (err) {
        if (!isSessionLost(err)) throw err;
        this.drop();
      }
    }
    return this.openAndReset(request);
  }

  step(action: unknown): Promise<WireStepResult> {
    return this.call((t) => t.step(action));
  }

  state(): Promise<WireState> {
    return this.call((t) => t.state());
  }

  mcp(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    // Listing tools needs no episode: open a session for it like reset does.
    return this.current || this.lost ? this.call((t) => t.mcp(request)) : this.openAnd((t) => t.mcp(request));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    await current?.transport.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new RemoteEnvError('SESSION_ERROR', 'This remote env is closed; create a new one.');
  }

  private async call<T>(fn: (t: RemoteTransport) => Promise<T>): Promise<T> {
    this.assertOpen();
    if (this.lost) throw this.lost;
    const current = this.current;
    if (!current) throw new RemoteEnvError('SESSION_ERROR', 'No episode is running: call reset() first.', { reason: 'reset_needed' });
    try {
      return await fn(current.transport);
    } catch (err) {
      if (!isSessionLost(err)) throw err;
      // The episode died with its server: say so once, typed, and keep saying it until reset.
      this.lost = new SessionLostError(current.url, err);
      this.drop();
      throw this.lost;
    }
  }

  private openAndReset(request: WireResetRequest): Promise<WireStepResult> {
    return this.openAnd((t) => t.reset(request));
  }

  /** Open a session on the next server that takes it and run `first` there. */
  private async openAnd<T>(first: (t: RemoteTransport) => Promise<T>): Promise<T> {
    const failures: string[] = [];
    /** Whether every server of this round answered CAPACITY_REACHED (the last such answer). */
    let allFull: RemoteEnvError | undefined;
    let delay = this.options.initialDelayMs ?? 100;
    for (let attempt = 0; attempt < this.attempts; attempt++) {
      if (attempt % this.urls.length === 0) allFull = undefined;
      const url = this.urls[this.next++ % this.urls.length]!;
      const transport = this.open(url);
      try {
        const result = await first(transport);
        this.assertOpen();
        this.current = { url, transport };
        return result;
      } catch (err) {
        void transport.close().catch(() => undefined);
        if (this.closed) throw err;
        const full = err instanceof RemoteEnvError && err.code === 'CAPACITY_REACHED' && err.data.reason !== 'draining';
        if (!full && !isSessionLost(err)) throw err;
        allFull = full && (allFull !== undefined || attempt % this.urls.length === 0) ? (err as RemoteEnvError) : undefined;
        failures.push(`${url}: ${(err as Error).message}`);
      }
      if ((attempt + 1) % this.urls.length === 0) {
        // Every server is up but full: that is the answer, not something to wait out.
        if (allFull) throw allFull;
        if (attempt + 1 < this.attempts) {
          // A whole round failed: back off, with jitter so that sessions do not come back in lockstep.
          await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random() / 2)));
          delay = Math.min(delay * 2, this.options.maxDelayMs ?? 5_000);
        }
      }
    }
    throw new RemoteEnvError('CONNECTION_ERROR', `No server took the session after ${this.attempts} attempts: ${failures.slice(-this.urls.length).join('; ')}`, { tried: failures });
  }

  private drop(): void {
    const current = this.current;
    this.current = undefined;
    // Not awaited: the server is gone, and closing must not wait on it.
    void current?.transport.close().catch(() => undefined);
  }
}
