/**
 * Backpressure: a client that sends 50,000 cheap steps and never reads its replies makes the
 * server pause that socket (it stops reading it) and, once the client has stayed over the
 * unsent-bytes bound for `stallTimeoutMs`, close it (WebSocket code 4429; an HTTP socket is
 * destroyed), while another session keeps getting its replies. The server's work is bounded by
 * the limits, not by what the client sent. Order and counts are asserted, never elapsed time.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { StepResult } from '../../src/gym/env.js';
import { createServer, silentLogger, WS_CLOSE, type EnvServer } from '../../src/remote/index.js';
import { SESSION_HEADER } from '../../src/remote/protocol/messages.js';
import { BigReplyEnv } from './fixtures/big-reply-env.js';
import { openRawClient } from './ws-helpers.js';

const LIMITS = { maxPendingRequests: 16, maxUnsentBytes: 64 * 1024, stallTimeoutMs: 300 };
const FLOOD = 50_000;

let server: EnvServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<EnvServer> {
  server = createServer({ envId: 'BigReply-v0', createEnv: () => new BigReplyEnv(), logger: silentLogger, maxSessions: 8, ...LIMITS });
  await server.listen(0, '127.0.0.1');
  return server;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}

function metric(s: EnvServer, pattern: RegExp): number {
  return Number(pattern.exec(s.metrics.render())?.[1] ?? 0);
}
const steps = (s: EnvServer) => metric(s, /^sqlenv_steps_total (\d+)$/m);
const flow = (s: EnvServer, transport: string, event: string) =>
  metric(s, new RegExp(`^sqlenv_backpressure_total\\{transport="${transport}",event="${event}"\\} (\\d+)$`, 'm'));

describe('WebSocket backpressure', () => {
  it('pauses, then closes with 4429, a client that floods steps and never reads; another session keeps its replies', async () => {
    const s = await start();
    const wsUrl = `${s.url.replace('http', 'ws')}/ws`;
    const abuser = await openRawClient(wsUrl);
    await abuser.request({ type: 'reset', data: {} });
    let received = 0;
    abuser.ws.on('message', () => received++);
    abuser.ws.pause(); // never reads from here on
    for (let i = 0; i < FLOOD; i++) abuser.ws.send('{"type":"step","data":1}');
    await until(() => flow(s, 'ws', 'pause') >= 1);

    // Another session is answered while the flood's socket is paused.
    const victim = await openRawClient(wsUrl);
    await victim.request({ type: 'reset', data: {} });
    for (let i = 0; i < 20; i++) expect((await victim.request({ type: 'step', data: 3 })).type).toBe('observation');

    await until(() => flow(s, 'ws', 'stall_close') === 1);
    // The server did a bounded share of the flood: what filled the socket buffers and its bounds.
    const abuserSteps = steps(s) - 20;
    expect(abuserSteps).toBeLessThan(FLOOD / 10);
    expect(s.metrics.render()).toMatch(/sqlenv_sessions_closed_total\{reason="backpressure"\} 1/);
    // Reading again, the client gets what was sent before the close, then the close code.
    abuser.ws.resume();
    expect(await abuser.closed).toBe(WS_CLOSE.notReading);
    expect(received).toBeLessThanOrEqual(abuserSteps);
    expect(steps(s) - 20).toBe(abuserSteps);
    // The victim is still served.
    expect((await victim.request({ type: 'step', data: 4 })).type).toBe('observation');
    victim.close();
  });

  it('slows down a client that pipelines far ahead but reads: every request answered in order, none refused', async () => {
    const s = await start();
    const client = await openRawClient(`${s.url.replace('http', 'ws')}/ws`);
    await client.request({ type: 'reset', data: {} });
    const ids: string[] = [];
    const done = new Promise<void>((resolve) => {
      client.ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type: string; request_id?: string };
        if (m.type === 'observation' && m.request_id) ids.push(m.request_id);
        if (ids.length === 2000) resolve();
      });
    });
    for (let i = 0; i < 2000; i++) client.ws.send(JSON.stringify({ type: 'step', data: 1, request_id: String(i) }));
    await done;
    expect(ids).toEqual(Array.from({ length: 2000 }, (_, i) => String(i)));
    expect(flow(s, 'ws', 'pause')).toBeGreaterThanOrEqual(1);
    expect(flow(s, 'ws', 'stall_close')).toBe(0);
    client.close();
  });
});

/** Each step takes 20 ms: a client pipelining many is paused by its pending-request bound. */
class SlowEnv extends BigReplyEnv {
  override async step(): Promise<StepResult<string>> {
    await new Promise((r) => setTimeout(r, 20));
    return ['ok', 0, false, false, {}];
  }
}

describe('WebSocket backpressure and the heartbeat', () => {
  it('does not take a socket paused for its pending requests for a dead one (the pong cannot be read while paused)', async () => {
    server = createServer({ envId: 'Slow-v0', createEnv: () => new SlowEnv(), logger: silentLogger, maxPendingRequests: 4, heartbeatMs: 20 });
    await server.listen(0, '127.0.0.1');
    const client = await openRawClient(`${server.url.replace('http', 'ws')}/ws`);
    await client.request({ type: 'reset', data: {} });
    let answered = 0;
    const all = new Promise<void>((resolve) => client.ws.on('message', () => ++answered === 60 && resolve()));
    for (let i = 0; i < 60; i++) client.ws.send('{"type":"step","data":1}');
    // Paused for many heartbeat intervals while the steps run; every one is answered.
    await Promise.race([all, client.closed.then((code) => Promise.reject(new Error(`the server closed the socket (${code})`)))]);
    expect(flow(server, 'ws', 'pause')).toBeGreaterThanOrEqual(1);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    client.close();
  });
});

describe('HTTP backpressure', () => {
  it('pauses a keep-alive connection that pipelines 50,000 steps without reading, then destroys it; other sessions are served', async () => {
    const s = await start();
    const open = async () => {
      const { session_id: id } = (await (await fetch(`${s.url}/sessions`, { method: 'POST' })).json()) as { session_id: string };
      await fetch(`${s.url}/reset`, { method: 'POST', headers: { [SESSION_HEADER]: id, 'content-type': 'application/json' }, body: '{}' });
      return id;
    };
    const id = await open();
    const body = '{"action":1}';
    const request = `POST /step HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${SESSION_HEADER}: ${id}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const socket: Socket = connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.pause(); // never reads
    socket.on('error', () => undefined); // the server resets it
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const batch = request.repeat(1000);
    for (let i = 0; i < FLOOD / 1000; i++) socket.write(batch);
    await until(() => flow(s, 'http', 'pause') >= 1);

    const other = await open();
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${s.url}/step`, { method: 'POST', headers: { [SESSION_HEADER]: other, 'content-type': 'application/json' }, body });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    await closed;
    expect(flow(s, 'http', 'stall_close')).toBe(1);
    expect(steps(s) - 20).toBeLessThan(FLOOD / 10);
  });
});
