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
}

/**
 * Backpressure for HTTP keep-alive connections. Node's HTTP server already stops parsing a
 * connection whose queued responses pass the socket's high-water mark, but it keeps parsing
 * pipelined requests while their responses are still being computed, so a client that pipelines
 * 50,000 slow steps would have all of them in memory. This counts each socket's requests in
 * progress and pauses the socket at `maxPendingRequests` (resuming at half: requests already
 * read in the same chunk, up to 64 KiB of them, still run). A socket with reply bytes waiting to
 * be sent on which no response has finished (been handed to the OS) for `stallTimeoutMs` has a
 * client that does not read: it is destroyed. A response that cannot be flushed never signals,
 * so busy sockets are checked four times per `stallTimeoutMs` (idle ones not at all).
 *
 * @example
 * ```ts
 * const flow = new HttpFlowControl(DEFAULT_FLOW_LIMITS, (event) => metrics.flowEvent('http', event));
 * http.createServer((req, res) => { flow.track(req, res); routes.handle(req, res); });
 * ```
 */
export class HttpFlowControl {
  private readonly sockets = new WeakMap<Socket, SocketFlow>();

  constructor(
    private readonly limits: FlowLimits,
    private readonly onEvent: (event: FlowEvent, socket: Socket) => void,
  ) {}

  /** Count `req` against its socket until its response is finished or aborted. */
  track(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const flow = this.flowOf(socket);
    flow.inFlight++;
    if (!flow.paused && flow.inFlight >= this.limits.maxPendingRequests) {
      flow.paused = true;
      socket.pause();
      this.onEvent('pause', socket);
    }
    this.watchWrites(socket, flow);
    let done = false;
    const release = (): void => {
      if (done) return;
      done = true;
      flow.inFlight--;
      flow.lastProgress = performance.now();
      if (flow.paused && flow.inFlight <= this.limits.maxPendingRequests / 2) {
        flow.paused = false;
        socket.resume();
      }
    };
    res.once('finish', release);
    res.once('close', release);
  }

  private flowOf(socket: Socket): SocketFlow {
    let flow = this.sockets.get(socket);
    if (flow) return flow;
    const created: SocketFlow = { inFlight: 0, paused: false, watch: undefined, lastProgress: performance.now() };
    flow = created;
    this.sockets.set(socket, created);
    // Node resumes a socket it paused itself once its responses drain; ours stays paused.
    socket.on('resume', () => {
      if (created.paused) process.nextTick(() => created.paused && socket.pause());
    });
    socket.once('close', () => clearInterval(created.watch));
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
