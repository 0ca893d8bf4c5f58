/** A minimal raw WebSocket client for tests: send a message, await the next frame, in order. */
import { pack, unpack } from 'msgpackr';
import WebSocket from 'ws';

export interface RawClient {
  ws: WebSocket;
  /** Send a value (JSON text frame or msgpack binary frame) and resolve with the next reply. */
  request(message: unknown, encoding?: 'json' | 'msgpack'): Promise<Record<string, unknown>>;
  /** Send raw bytes/text and resolve with the next reply. */
  raw(data: string | Buffer, binary: boolean): Promise<Record<string, unknown>>;
  /** Resolves with the close code when the socket closes. */
  closed: Promise<number>;
  close(): void;
}

export async function openRawClient(url: string, headers: Record<string, string> = {}): Promise<RawClient> {
  const ws = new WebSocket(url, { headers });
  const inbox: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => void)[] = [];
  ws.on('message', (data, isBinary) => {
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    const msg = (isBinary ? unpack(buf) : JSON.parse(buf.toString('utf8'))) as Record<string, unknown>;
    msg.__binary = isBinary;
    const w = waiters.shift();
    if (w) w(msg);
    else inbox.push(msg);
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = () => new Promise<Record<string, unknown>>((resolve) => (inbox.length ? resolve(inbox.shift()!) : waiters.push(resolve)));
  const raw = (data: string | Buffer, binary: boolean) => {
    ws.send(data, { binary });
    return next();
  };
  return {
    ws,
    closed,
    raw,
    request: (message, encoding = 'json') => (encoding === 'json' ? raw(JSON.stringify(message), false) : raw(pack(message), true)),
    close: () => ws.close(),
  };
}
