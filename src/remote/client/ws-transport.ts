import WebSocket from 'ws';
import { WireCodec } from '../protocol/codec.js';
import type { JsonRpcRequest, JsonRpcResponse, ServerMessage, WireResetRequest, WireState, WireStepResult } from '../protocol/messages.js';
import { RemoteEnvError } from './remote-env-error.js';
import { wsUrl, type RemoteTransport, type TransportOptions } from './transport.js';

interface Pending {
  resolve: (message: ServerMessage) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * A session over `WS /ws`: one socket, opened on first use; JSON text frames or MessagePack
 * binary frames. Replies arrive in request order, so pending requests are a FIFO queue.
 *
 * @example
 * ```ts
 * const t = new WsTransport('http://127.0.0.1:8000', { encoding: 'msgpack' });
 * await t.reset({ seed: 1 });
 * await t.close();
 * ```
 */
export class WsTransport implements RemoteTransport {
  private readonly codec = new WireCodec();
  private readonly pending: Pending[] = [];
  private socket: Promise<WebSocket> | undefined;
  private closed = false;
  /**
   * An error frame the server sent before any request (the session could not be opened:
   * `FACTORY_ERROR`, `CAPACITY_REACHED`); it closes the socket next, and every request fails with it.
   */
  private refused: RemoteEnvError | undefined;

  constructor(
    private readonly url: string,
    private readonly options: TransportOptions,
  ) {}

  async reset(request: WireResetRequest): Promise<WireStepResult> {
    return expectType(await this.request({ type: 'reset', data: request }), 'observation').data as WireStepResult;
  }

  async step(action: unknown): Promise<WireStepResult> {
    return expectType(await this.request({ type: 'step', data: action }), 'observation').data as WireStepResult;
  }

  async state(): Promise<WireState> {
    return expectType(await this.request({ type: 'state' }), 'state').data as WireState;
  }

  async mcp(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    return expectType(await this.request({ type: 'mcp', data: request }), 'mcp').data as JsonRpcResponse;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const socket = this.socket;
    if (!socket) return;
    const ws = await socket.catch(() => undefined);
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      // Tell the server first so it frees the session without waiting for the TCP close.
      if (ws.readyState === WebSocket.OPEN) ws.send(this.codec.encode({ type: 'close' }, this.options.encoding));
      ws.close(1000);
    });
  }

  private async request(message: Record<string, unknown>): Promise<ServerMessage> {
    if (this.closed) throw new RemoteEnvError('SESSION_ERROR', 'This remote env is closed; create a new one.');
    const ws = await this.connect();
    if (this.refused) throw this.refused;
    if (ws.readyState !== WebSocket.OPEN) throw new RemoteEnvError('CONNECTION_ERROR', 'The server closed the connection; create a new remote env.');
    return new Promise<ServerMessage>((resolve, reject) => {
      const timeoutMs = this.options.requestTimeoutMs ?? 60_000;
      const timer = setTimeout(() => {
        // Replies are matched by order, so after a lost reply the socket cannot be trusted.
        ws.terminate();
        reject(new RemoteEnvError('CONNECTION_ERROR', `No reply within ${timeoutMs} ms; the session was closed.`));
      }, timeoutMs);
      this.pending.push({ resolve, reject, timer });
      ws.send(this.codec.encode(message, this.options.encoding), { binary: this.options.encoding === 'msgpack' });
    });
  }

  private connect(): Promise<WebSocket> {
    this.socket ??= new Promise<WebSocket>((resolve, reject) => {
      const headers: Record<string, string> = this.options.token ? { authorization: `Bearer ${this.options.token}` } : {};
      const ws = new WebSocket(wsUrl(this.url), { headers, perMessageDeflate: false });
      ws.on('message', (data, isBinary) => this.receive(data as Buffer | Buffer[], isBinary));
      ws.on('close', (code, reason) => this.failAll(this.refused ?? new RemoteEnvError('CONNECTION_ERROR', `The server closed the connection (${code} ${reason.toString()}).`)));
      ws.once('open', () => resolve(ws));
      ws.once('error', (err) => {
        reject(new RemoteEnvError('CONNECTION_ERROR', `Could not reach ${wsUrl(this.url)}: ${err.message}`));
        this.failAll(err);
      });
      ws.once('unexpected-response', (_req, res) => {
        reject(new RemoteEnvError(res.statusCode === 401 ? 'UNAUTHORIZED' : 'CONNECTION_ERROR', `WebSocket upgrade refused with HTTP ${res.statusCode}.`, {}, res.statusCode));
        ws.terminate();
      });
    });
    return this.socket;
  }

  private receive(data: Buffer | Buffer[], isBinary: boolean): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : data;
    const next = this.pending.shift();
    if (!next) {
      this.unsolicited(bytes, isBinary);
      return;
    }
    clearTimeout(next.timer);
    try {
      next.resolve(this.codec.decode(bytes, isBinary ? 'msgpack' : 'json') as ServerMessage);
    } catch (err) {
      next.reject(err as Error);
    }
  }

  /** A frame no request waits for: keep a server error (the session was refused) for the requests to come. */
  private unsolicited(bytes: Buffer, isBinary: boolean): void {
    try {
      const message = this.codec.decode(bytes, isBinary ? 'msgpack' : 'json') as ServerMessage;
      if (message.type === 'error') {
        const data = message.data;
        this.refused ??= new RemoteEnvError(String(data.code), String(data.message), data);
        this.failAll(this.refused);
      }
    } catch {
      // Undecodable and unrequested: nothing to report it to.
    }
  }

  private failAll(error: Error): void {
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(error);
    }
  }
}

function expectType(message: ServerMessage, type: ServerMessage['type']): ServerMessage {
  if (message.type === 'error') {
    const data = message.data;
    throw new RemoteEnvError(String(data.code), String(data.message), data);
  }
  if (message.type !== type) throw new RemoteEnvError('UNKNOWN_TYPE', `Expected a "${type}" message, got "${String(message.type)}".`);
  return message;
}
