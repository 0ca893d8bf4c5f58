/**
 * The unsent-bytes bound holds for every reply the server sends: a client that floods one kind
 * of request and never reads makes a connection hold at most `maxUnsentBytes` plus one reply
 * (`sqlenv_unsent_bytes_peak`), whatever the message type or route, on WebSocket (JSON text and
 * MessagePack binary frames; ws itself ends a client that leaves 60 pongs unread) and on HTTP
 * keep-alive (JSON and MessagePack). Replies are made large (8 KiB observations, a 6 KiB tool description in every
 * schema), and each flood is 50,000 requests, so that its replies outgrow the loopback socket
 * buffers: every case must fill its connection to at least half the bound. Each case has its own
 * server; it ends once the connection is full or closed for not reading (at most 15 s).
 * Loopback only.
 */
import { connect, type Socket } from 'node:net';
import { pack } from 'msgpackr';
import { afterAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { createServer, silentLogger, type EnvServer } from '../../src/remote/index.js';
import { MSGPACK_CONTENT_TYPE, SESSION_HEADER } from '../../src/remote/protocol/messages.js';
import { BigReplyEnv } from './fixtures/big-reply-env.js';
import { openRawClient } from './ws-helpers.js';

const LIMITS = { maxPendingRequests: 16, maxUnsentBytes: 64 * 1024, stallTimeoutMs: 300 };
/** Requests per flood: their replies are megabytes, far past the bound and the socket buffers. */
const FLOOD = 50_000;
/** How long a case may take to fill the connection up to its bound. */
const CASE_MS = 15_000;

const servers: EnvServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(): Promise<EnvServer> {
  const server = createServer({ envId: 'BigReply-v0', createEnv: () => new BigReplyEnv(), logger: silentLogger, maxSessions: 4, ...LIMITS });
  servers.push(server);
  await server.listen(0, '127.0.0.1');
  return server;
}

function metric(s: EnvServer, pattern: RegExp): number {
  return Number(pattern.exec(s.metrics.render())?.[1] ?? 0);
}
const peak = (s: EnvServer, transport: 'ws' | 'http') => metric(s, new RegExp(`^sqlenv_unsent_bytes_peak\\{transport="${transport}"\\} (\\d+)$`, 'm'));
const stallCloses = (s: EnvServer, transport: 'ws' | 'http') => metric(s, new RegExp(`^sqlenv_backpressure_total\\{transport="${transport}",event="stall_close"\\} (\\d+)$`, 'm'));

async function until(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

type Send = (ws: WebSocket) => void;
const json = (message: unknown): Send => (ws) => ws.send(JSON.stringify(message));
const msgpack = (message: unknown): Send => (ws) => ws.send(pack(message), { binary: true });
const step = { type: 'step', data: { name: 'query', arguments: { sql: 'SELECT 1' } } };
const toolsList = { type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/list' } };
const toolsCall = { type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'query', arguments: { sql: 'SELECT 1' } } } };

const WS_CASES: [string, Send][] = [
  ['reset (json)', json({ type: 'reset', data: {} })],
  ['reset (msgpack)', msgpack({ type: 'reset', data: {} })],
  ['step (json)', json(step)],
  ['step (msgpack)', msgpack(step)],
  ['state (json)', json({ type: 'state' })],
  ['state (msgpack)', msgpack({ type: 'state' })],
  ['mcp tools/list (json)', json(toolsList)],
  ['mcp tools/list (msgpack)', msgpack(toolsList)],
  ['mcp tools/call (json)', json(toolsCall)],
  ['mcp tools/call (msgpack)', msgpack(toolsCall)],
  ['unknown type (json)', json({ type: 'nope'.repeat(1000) })],
  ['invalid JSON', (ws) => ws.send('{"type": "step", "data": ')],
  ['invalid msgpack', (ws) => ws.send(Buffer.from([0xc1, 0xc1, 0xc1]), { binary: true })],
];

describe('WebSocket: a client that never reads holds at most maxUnsentBytes plus one reply', () => {
  it.each(WS_CASES)('%s', async (_name, send) => {
    const s = await start();
    const client = await openRawClient(`${s.url.replace('http', 'ws')}/ws`);
    expect((await client.request({ type: 'reset', data: {} })).type).toBe('observation');
    client.ws.on('error', () => undefined);
    client.ws.pause(); // never reads from here on
    for (let i = 0; i < FLOOD; i++) send(client.ws);
    // Filled up to the bound (the flood outgrew the socket buffers), or closed for not reading.
    await until(() => peak(s, 'ws') >= LIMITS.maxUnsentBytes || stallCloses(s, 'ws') > 0, CASE_MS);
    expect(peak(s, 'ws')).toBeGreaterThanOrEqual(LIMITS.maxUnsentBytes / 2);
    // The largest reply of these cases is a tools/list frame (< 16 KiB).
    expect(peak(s, 'ws')).toBeLessThanOrEqual(LIMITS.maxUnsentBytes + 16 * 1024);
    client.ws.terminate();
  });

  it('ping frames: ws answers them itself and terminates a client with 60 pongs unread', async () => {
    const s = await start();
    const client = await openRawClient(`${s.url.replace('http', 'ws')}/ws`);
    client.ws.on('error', () => undefined);
    client.ws.pause();
    for (let i = 0; i < FLOOD; i++) client.ws.ping(Buffer.alloc(125, 0x70));
    expect(await client.closed).toBe(1006);
    expect(peak(s, 'ws')).toBeLessThanOrEqual(LIMITS.maxUnsentBytes);
  });
});

/** One pipelined HTTP/1.1 request on a session. */
function httpRequest(method: string, path: string, session: string, body?: Buffer | string, headers: Record<string, string> = {}): Buffer {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: x', `${SESSION_HEADER}: ${session}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== undefined) lines.push(`Content-Length: ${payload.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]);
}

const JSON_BODY = { 'Content-Type': 'application/json' };
const MSGPACK_BODY = { 'Content-Type': MSGPACK_CONTENT_TYPE, Accept: MSGPACK_CONTENT_TYPE };
/** [route, request, whether its replies can fill the bound (bodies are counted; /health's and a 400's are tens of bytes)] */
const HTTP_CASES: [string, (session: string) => Buffer, boolean][] = [
  ['POST /reset (json)', (id) => httpRequest('POST', '/reset', id, '{}', JSON_BODY), true],
  ['POST /reset (msgpack)', (id) => httpRequest('POST', '/reset', id, pack({}), MSGPACK_BODY), true],
  ['POST /step (json)', (id) => httpRequest('POST', '/step', id, JSON.stringify({ action: step.data }), JSON_BODY), true],
  ['POST /step (msgpack)', (id) => httpRequest('POST', '/step', id, pack({ action: step.data }), MSGPACK_BODY), true],
  ['GET /state', (id) => httpRequest('GET', '/state', id), true],
  ['GET /health', (id) => httpRequest('GET', '/health', id), false],
  ['GET /schema', (id) => httpRequest('GET', '/schema', id), true],
  ['GET /metadata', (id) => httpRequest('GET', '/metadata', id), true],
  ['GET /metrics', (id) => httpRequest('GET', '/metrics', id), true],
  ['GET /openapi.json', (id) => httpRequest('GET', '/openapi.json', id), true],
  ['POST /mcp tools/list', (id) => httpRequest('POST', '/mcp', id, JSON.stringify(toolsList.data), JSON_BODY), true],
  ['GET of an unknown route (404)', (id) => httpRequest('GET', '/nope', id), true],
  ['POST /step with invalid JSON (400)', (id) => httpRequest('POST', '/step', id, '{"action": ', JSON_BODY), false],
];

describe('HTTP keep-alive: a client that pipelines and never reads holds at most maxUnsentBytes plus one reply', () => {
  it.each(HTTP_CASES)('%s', async (_name, request, fills) => {
    const s = await start();
    const { session_id: id } = (await (await fetch(`${s.url}/sessions`, { method: 'POST' })).json()) as { session_id: string };
    await (await fetch(`${s.url}/reset`, { method: 'POST', headers: { [SESSION_HEADER]: id, 'content-type': 'application/json' }, body: '{}' })).arrayBuffer();
    const socket: Socket = connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.pause(); // never reads
    socket.on('error', () => undefined);
    const batch = Buffer.concat(Array.from({ length: 500 }, () => request(id)));
    for (let i = 0; i < FLOOD / 500; i++) socket.write(batch);
    await until(() => peak(s, 'http') >= LIMITS.maxUnsentBytes || stallCloses(s, 'http') > 0 || socket.destroyed, CASE_MS);
    expect(peak(s, 'http')).toBeGreaterThanOrEqual(fills ? LIMITS.maxUnsentBytes / 2 : 1);
    // The largest reply is /openapi.json's (< 64 KiB here).
    expect(peak(s, 'http')).toBeLessThanOrEqual(LIMITS.maxUnsentBytes + 64 * 1024);
    socket.destroy();
  });
});
