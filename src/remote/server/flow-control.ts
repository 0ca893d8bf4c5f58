import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Per-connection bounds that keep one client from making the server hold unbounded work or
 * unsent replies (server options `maxPendingRequests`, `maxUnsentBytes`, `stallTimeoutMs`).
 */
export interface FlowLimits {
  /**
   * Requests one connection may have received and not yet answered (WebSocket messages, or
   * pipelined HTTP requests). At the bound the server stops reading from that socket until half
   * of them are answered, so a pipelining client is slowed down, never refused. Default 64.
   */
  maxPendingRequests: number;
  /**
   * Reply bytes one connection may have waiting to be sent (a client that does not read). Over
   * it, the server stops reading and answering that connection until half has drained.
   * Default 4 MiB.
   */
  maxUnsentBytes: number;
  /**
   * How long a connection may stay blocked on a client that does not read (over
   * `maxUnsentBytes`, or an HTTP socket that cannot drain) before the server closes it:
   * WebSocket close code 4429, an HTTP socket is destroyed; the session's env is closed at once.
   * Default 30 000 ms.
   */
  stallTimeoutMs: number;
}

/**
 * The default {@link FlowLimits}.
 *
 * @example
 * ```ts
 * createServer({ envId: 'SQLEnv-v0', ...DEFAULT_FLOW_LIMITS, maxUnsentBytes: 16 << 20 });
 * ```
 */
export const DEFAULT_FLOW_LIMITS: Readonly<FlowLimits> = Object.freeze({
  maxPendingRequests: 64,
  maxUnsentBytes: 4 << 20,
  stallTimeoutMs: 30_000,
});

/** What flow control reports: a socket paused, or closed because its client stopped reading. */
export type FlowEvent = 'pause' | 'stall_close';

interface SocketFlow {
  inFlight: number;
  /** Paused by this class (Node's HTTP server pauses and resumes sockets on its own too). */
  paused: boolean;
  /** Watches the socket's writes while it has requests in progress or writes backed up. */
  watch: NodeJS.Timeout | undefined;
  /** `performance.now()` of the last response fully handed to the OS (or of the watch's start). */
  lastProgress: number;
  /** Reply bytes this socket's responses have written that the OS has not taken yet. */
  unsent: number;
  /** Settles once the socket's latest admitted request has written its whole reply. */
  turn: Promise<void>;
  /** Wakes the request waiting for the unsent bytes to drain. */
  drained: (() => void) | undefined;
}

/** Bytes of a chunk given to `res.write`/`res.end` (anything else, e.g. a callback, is 0). */
function chunkBytes(chunk: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk);
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/**
 * Backpressure for HTTP keep-alive connections. Node's HTTP server already stops parsing a
 * connection whose queued responses pass the socket's high-water mark, but it keeps parsing
 * pipelined requests while their responses are still being computed, and a 64 KiB chunk holds a
 * thousand small requests (`GET /openapi.json`), so a client that pipelines and never reads would
 * have all of their replies in memory. So each socket's requests are answered one at a time, in
 * order (their responses go out in that order anyway), each only once the socket's unsent reply
 * bytes are at most `maxUnsentBytes` (else when they have drained to half): whatever the route, a
 * connection holds at most `maxUnsentBytes` plus one reply. Requests in progress are counted and
 * the socket is paused at `maxPendingRequests` (resuming at half: requests already read in the
 * same chunk, up to 64 KiB of them, still wait their turn). A socket with reply bytes waiting to
 * be sent on which no response has finished (been handed to the OS) for `stallTimeoutMs` has a
 * client that does not read: it is destroyed, and the requests still waiting are dropped. A
 * response that cannot be flushed never signals, so busy sockets are checked four times per
 * `stallTimeoutMs` (idle ones not at all).
 *
 * @example
 * ```ts
 * const flow = new HttpFlowControl(DEFAULT_FLOW_LIMITS, (event) => metrics.flowEvent('http', event));
 * http.createServer(async (req, res) => {
 *   if (await flow.track(req, res)) await routes.handle(req, res);
 * });
 * ```
 */
export class HttpFlowControl {
  private readonly sockets = new WeakMap<Socket, SocketFlow>();

  constructor(
    private readonly limits: FlowLimits,
    private readonly onEvent: (event: FlowEvent, socket: Socket) => void,
    private readonly onUnsent: (bytes: number) => void = () => undefined,
  ) {}

  /**
   * Count `req` against its socket until its response is finished or aborted, and count the
   * bytes its response writes until the OS has taken them. Resolves true when `req` may be
   * answered (its turn came and the socket is under the unsent bound), false when the socket
   * closed first (nothing can be sent: do not answer).
   */
  track(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const socket = req.socket;
    const flow = this.flowOf(socket);
    flow.inFlight++;
    if (!flow.paused && flow.inFlight >= this.limits.maxPendingRequests) {
      flow.paused = true;
      socket.pause();
      this.onEvent('pause', socket);
    }
    this.watchWrites(socket, flow);

    let wrote!: () => void;
    const previous = flow.turn;
    flow.turn = new Promise<void>((resolve) => (wrote = resolve));
    let bytes = 0;
    const count = (chunk: unknown): void => {
      const n = chunkBytes(chunk);
      bytes += n;
      flow.unsent += n;
      this.onUnsent(flow.unsent);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      count(args[0]);
      return write(...args);
    }) as ServerResponse['write'];
    res.end = ((...args: unknown[]) => {
      if (typeof args[0] !== 'function') count(args[0]);
      const result = end(...args);
      wrote();
      return result;
    }) as ServerResponse['end'];

    let done = false;
    const release = (): void => {
      if (done) return;
      done = true;
      wrote();
      flow.inFlight--;
      flow.unsent -= bytes;
      flow.lastProgress = performance.now();
      if (flow.unsent <= this.limits.maxUnsentBytes / 2) this.wake(flow);
      if (flow.paused && flow.inFlight <= this.limits.maxPendingRequests / 2) {
        flow.paused = false;
        socket.resume();
      }
    };
    res.once('finish', release);
    res.once('close', release);
    return previous.then(() => this.underBound(socket, flow));
  }

  /** Resolves true once the socket's unsent bytes are under the bound, false if it closed. */
  private underBound(socket: Socket, flow: SocketFlow): Promise<boolean> | boolean {
    if (socket.destroyed) return false;
    if (flow.unsent <= this.limits.maxUnsentBytes) return true;
    return new Promise<boolean>((resolve) => (flow.drained = () => resolve(!socket.destroyed)));
  }

  private wake(flow: SocketFlow): void {
    const drained = flow.drained;
    flow.drained = undefined;
    drained?.();
  }

  private flowOf(socket: Socket): SocketFlow {
    let flow = this.sockets.get(socket);
    if (flow) return flow;
    const created: SocketFlow = { inFlight: 0, paused: false, watch: undefined, lastProgress: performance.now(), unsent: 0, turn: Promise.resolve(), drained: undefined };
    flow = created;
    this.sockets.set(socket, created);
    // Node resumes a socket it paused itself once its responses drain; ours stays paused.
    socket.on('resume', () => {
      if (created.paused) process.nextTick(() => created.paused && socket.pause());
    });
    socket.once('close', () => {
      clearInterval(created.watch);
      this.wake(created);
    });
    return created;
  }

  /** Check the socket's writes until it has no request in progress and nothing left to send. */
  private watchWrites(socket: Socket, flow: SocketFlow): void {
    if (flow.watch) return;
    flow.lastProgress = performance.now();
    flow.watch = setInterval(() => {
      const waiting = socket.writableLength > 0;
      if (!waiting && flow.inFlight === 0) {
        clearInterval(flow.watch);
        flow.watch = undefined;
        return;
      }
      // Nothing to send (a slow env, not a slow client) is never a stall.
      if (!waiting) flow.lastProgress = performance.now();
      if (performance.now() - flow.lastProgress < this.limits.stallTimeoutMs || socket.destroyed) return;
      clearInterval(flow.watch);
      flow.watch = undefined;
      this.onEvent('stall_close', socket);
      socket.destroy();
    }, Math.max(10, this.limits.stallTimeoutMs / 4));
    flow.watch.unref();
  }
}
