import type { RawData, WebSocket } from 'ws';
import type { WireEncoding } from '../protocol/codec.js';
import { ProtocolError } from '../protocol/error-codes.js';
import type { ServerMessage, WireResetRequest } from '../protocol/messages.js';
import type { EnvSession } from './env-session.js';
import { connectionSessions, handleJsonRpc, sessionTarget } from './mcp.js';
import type { ServerContext } from './server-context.js';

/** WebSocket close codes this server uses. */
export const WS_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  internalError: 1011,
  tryAgainLater: 1013,
  /** Private-use code: the session idled past --session-timeout. */
  idleTimeout: 4408,
  /** Private-use code: the client left more than `maxUnsentBytes` unread for `stallTimeoutMs`. */
  notReading: 4429,
} as const;

/**
 * One WebSocket client = one session (OpenEnv's `/ws`). Messages are answered strictly in the
 * order they arrive (a client may pipeline), each in the encoding it came in: text frames
 * JSON, binary frames MessagePack. A bad message gets an `error` frame and the connection
 * stays open; the session's env is closed when the socket closes, however it closes.
 *
 * Backpressure: at `maxPendingRequests` messages received and not yet answered, or
 * `maxUnsentBytes` of replies the client has not read (answers to every message type; ws bounds
 * the pongs it sends for pings itself, terminating a client with 60 unsent), the socket is paused (nothing more is read
 * from it, so TCP pushes back on the client) until half has cleared; over `maxUnsentBytes` no
 * further request is answered either. A client that stays over `maxUnsentBytes` for
 * `stallTimeoutMs` is closed with code 4429 and its session ended.
 *
 * @example
 * ```ts
 * wss.on('connection', (ws) => new WsConnection(ws, context).start());
 * ```
 */
export class WsConnection {
  private session: EnvSession | undefined;
  private chain: Promise<void> = Promise.resolve();
  private alive = true;
  /** Messages received and not yet answered. */
  private pending = 0;
  /** Paused for backpressure (see the class comment). */
  private paused = false;
  private stallTimer: NodeJS.Timeout | undefined;
  /** Resolves the request waiting for unsent replies to drain. */
  private drained: (() => void) | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly ctx: ServerContext,
  ) {}

  /** The session id once open. */
  get sessionId(): string | undefined {
    return this.session?.id;
  }

  /** Open the session and start answering messages. */
  start(): void {
    const opening = this.ctx.sessions.open('ws').then(
      (session) => {
        this.session = session;
        if (this.ws.readyState !== this.ws.OPEN) void this.ctx.sessions.close(session.id, 'disconnect');
      },
      (err: unknown) => {
        const error = err as ProtocolError;
        this.sendError(error, 'json');
        this.ws.close(error.code === 'CAPACITY_REACHED' ? WS_CLOSE.tryAgainLater : WS_CLOSE.internalError, error.code);
      },
    );
    this.chain = this.ctx.track(opening);
    this.ws.on('message', (data, isBinary) => this.enqueue(data, isBinary));
    this.ws.on('pong', () => (this.alive = true));
    this.ws.on('close', () => {
      clearTimeout(this.stallTimer);
      this.release();
      // At once: the session refuses the requests still queued, interrupts the one in flight (a
      // running query is killed) and closes its env after it. A session still opening is closed
      // by start() once it opens.
      if (this.session) void this.ctx.sessions.close(this.session.id, 'disconnect');
    });
    this.ws.on('error', (err) => this.ctx.logger.log('ws_error', { session_id: this.sessionId, message: err.message }));
  }

  /** Heartbeat: terminate a socket that did not answer the previous ping (half-open). */
  heartbeat(): void {
    // A paused socket cannot read the pong; the stall timer watches clients that stopped reading.
    if (this.paused) {
      this.alive = true;
      return;
    }
    if (!this.alive) {
      this.ctx.logger.log('ws_dead', { session_id: this.sessionId });
      this.ws.terminate();
      return;
    }
    this.alive = false;
    this.ws.ping();
  }

  /** Finish the in-flight request, then close the socket (shutdown or reaping). */
  async shutdown(code: number, reason: string): Promise<void> {
    await this.chain;
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(code, reason);
  }

  private enqueue(data: RawData, isBinary: boolean): void {
    // Messages read after the socket began closing are not answered.
    if (this.ws.readyState !== this.ws.OPEN) return;
    const encoding: WireEncoding = isBinary ? 'msgpack' : 'json';
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    this.pending++;
    this.updateFlow();
    const next = this.chain
      .then(() => this.whenWritable())
      .then(() => (this.ws.readyState === this.ws.OPEN ? this.answer(bytes, encoding) : undefined))
      .finally(() => {
        this.pending--;
        this.updateFlow();
      });
    this.chain = this.ctx.track(next);
  }

  /** Resolves once the replies waiting to be sent are back under the bound (or the socket closed). */
  private whenWritable(): Promise<void> | undefined {
    if (this.ws.bufferedAmount <= this.ctx.flow.maxUnsentBytes || this.ws.readyState !== this.ws.OPEN) return undefined;
    return new Promise((resolve) => (this.drained = resolve));
  }

  private release(): void {
    const drained = this.drained;
    this.drained = undefined;
    drained?.();
  }

  /** Pause or resume reading, hold or release answering, and arm or disarm the stall timer. */
  private updateFlow(): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const { maxPendingRequests, maxUnsentBytes, stallTimeoutMs } = this.ctx.flow;
    const unsent = this.ws.bufferedAmount;
    this.ctx.metrics.unsentBytes('ws', unsent);
    const over = unsent > maxUnsentBytes;
    if (!this.paused && (over || this.pending >= maxPendingRequests)) {
      this.paused = true;
      this.ws.pause();
      this.ctx.metrics.flowEvent('ws', 'pause');
    } else if (this.paused && this.pending <= maxPendingRequests / 2 && unsent <= maxUnsentBytes / 2) {
      this.paused = false;
      this.ws.resume();
    }
    if (unsent <= maxUnsentBytes / 2) this.release();
    if (over) {
      this.stallTimer ??= setTimeout(() => this.stalled(), stallTimeoutMs);
    } else if (this.stallTimer) {
      clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
    }
  }

  /** The client left too much unread for too long: close it and end its session now. */
  private stalled(): void {
    this.stallTimer = undefined;
    if (this.ws.readyState !== this.ws.OPEN || this.ws.bufferedAmount <= this.ctx.flow.maxUnsentBytes) return;
    const unsent = this.ws.bufferedAmount;
    this.ctx.metrics.flowEvent('ws', 'stall_close');
    this.ctx.logger.log('backpressure_close', { session_id: this.sessionId, transport: 'ws', unsent_bytes: unsent, pending_requests: this.pending });
    if (this.session) void this.ctx.sessions.close(this.session.id, 'backpressure');
    this.ws.close(WS_CLOSE.notReading, `client not reading: ${unsent} bytes unsent for ${this.ctx.flow.stallTimeoutMs} ms`);
    // Read on, so the client's close reply completes the handshake; its other messages are dropped.
    this.ws.resume();
    this.release();
  }

  private async answer(bytes: Buffer, encoding: WireEncoding): Promise<void> {
    let requestId: unknown;
    try {
      if (bytes.length > this.ctx.maxFrameBytes) {
        throw new ProtocolError('PAYLOAD_TOO_LARGE', `Frame of ${bytes.length} bytes exceeds the limit of ${this.ctx.maxFrameBytes} bytes (server option maxFrameBytes).`, {
          max_bytes: this.ctx.maxFrameBytes,
        });
      }
      const message = this.ctx.codec.decode(bytes, encoding);
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        throw new ProtocolError('INVALID_JSON', 'A message is an object {"type": ..., "data": ...}.');
      }
      const { type, data, request_id } = message as { type?: unknown; data?: unknown; request_id?: unknown };
      requestId = request_id;
      const reply = await this.dispatch(type, data);
      if (reply) this.send({ ...reply, ...(typeof requestId === 'string' ? { request_id: requestId } : {}) } as ServerMessage, encoding);
    } catch (err) {
      const error = err instanceof ProtocolError ? err : new ProtocolError('EXECUTION_ERROR', (err as Error).message);
      this.sendError(error, encoding, requestId);
    }
  }

  private async dispatch(type: unknown, data: unknown): Promise<ServerMessage | undefined> {
    if (this.ctx.isDraining()) throw new ProtocolError('CAPACITY_REACHED', 'The server is shutting down.', { reason: 'draining' });
    const session = this.session;
    if (!session) throw new ProtocolError('SESSION_ERROR', 'This connection has no session.', { reason: 'no_session' });
    switch (type) {
      case 'reset':
        return { type: 'observation', data: await session.reset((data ?? {}) as WireResetRequest) };
      case 'step':
        return { type: 'observation', data: await session.step(data) };
      case 'state':
        return { type: 'state', data: session.state() };
      case 'mcp': {
        const answer = await handleJsonRpc(data, sessionTarget(session), this.ctx.envId, connectionSessions(session, () => this.ctx.sessions.close(session.id, 'client')));
        return answer ? { type: 'mcp', data: answer } : undefined;
      }
      case 'close':
        await this.ctx.sessions.close(session.id, 'client');
        this.ws.close(WS_CLOSE.normal, 'closed by client');
        return undefined;
      default:
        throw new ProtocolError('UNKNOWN_TYPE', `Unknown message type ${JSON.stringify(type)}. Types: reset, step, state, mcp, close.`);
    }
  }

  private sendError(error: ProtocolError, encoding: WireEncoding, requestId?: unknown): void {
    this.ctx.metrics.errorSeen('protocol', error.code);
    if (error.code === 'EXECUTION_ERROR') this.ctx.logger.log('request_error', { session_id: this.sessionId, code: error.code, message: error.message });
    const frame = { type: 'error', data: error.toWire(), ...(typeof requestId === 'string' ? { request_id: requestId } : {}) };
    this.send(frame as ServerMessage, encoding);
  }

  private send(message: ServerMessage, encoding: WireEncoding): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const payload = this.ctx.codec.encode(message, encoding);
    // The callback runs once the frame is handed to the OS: unsent bytes went down.
    this.ws.send(payload, { binary: encoding === 'msgpack' }, () => this.updateFlow());
    this.updateFlow();
  }
}
