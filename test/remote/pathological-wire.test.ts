/**
 * Pathological actions over the wire (WebSocket JSON, WebSocket MessagePack, HTTP JSON and
 * MessagePack): each is a judged SQLEnv step with a typed `info.error_type`, or, for a
 * MessagePack frame nested too deeply to decode, a typed `INVALID_JSON` error that takes no
 * step; either way `state.step_count` equals the last observation's `step`, and the session
 * keeps serving. Needs the compiled query worker (npm test builds first).
 */
import { unpack } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQL_ERROR_TYPES } from '../../envs/sql/index.js';
import { MSGPACK_CONTENT_TYPE, SESSION_HEADER } from '../../src/remote/protocol/messages.js';
import { PATHOLOGICAL_ACTIONS, type PathologicalAction } from '../sql/pathological-actions.js';
import { deepJson, deepMsgpack } from './deep-encode.js';
import { startSqlServer, type SqlTestServer } from './fixtures/sql-server.js';
import { openRawClient, type RawClient } from './ws-helpers.js';

let sql: SqlTestServer;
beforeAll(async () => {
  sql = await startSqlServer('smoke', { maxSessions: 8, maxFrameBytes: 4 << 20, maxBodyBytes: 4 << 20 });
});
afterAll(async () => {
  await sql?.close();
});

/** NaN and infinities: MessagePack carries them, JSON cannot. */
const MSGPACK_ONLY: PathologicalAction[] = [
  { name: 'NaN sample size', make: () => ({ name: 'sample', arguments: { table_name: 'singer', n: NaN } }), wire: true },
  { name: 'NaN and Infinity answer', make: () => ({ name: 'answer', arguments: { value: [NaN, Infinity, -Infinity] } }), wire: true },
];
const WIRE = PATHOLOGICAL_ACTIONS.filter((a) => a.wire);

/** Nesting depth of a plain value, counted without recursion. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    max = Math.max(max, d);
    if (v !== null && typeof v === 'object') for (const c of Object.values(v)) stack.push([c, d + 1]);
  }
  return max;
}

type Reply = { kind: 'observation'; step: number; errorType: unknown } | { kind: 'error'; code: string; message: string };

interface Driver {
  reset(): Promise<number>;
  step(action: unknown): Promise<Reply>;
  stepCount(): Promise<number>;
  close(): Promise<void>;
}

function toReply(message: Record<string, unknown>): Reply {
  const data = message.data as Record<string, unknown>;
  if (message.type === 'observation') {
    return { kind: 'observation', step: (data.observation as { step: number }).step, errorType: (data.info as { error_type: unknown }).error_type };
  }
  return { kind: 'error', code: data.code as string, message: data.message as string };
}

async function wsDriver(encoding: 'json' | 'msgpack'): Promise<Driver> {
  const client: RawClient = await openRawClient(`${sql.server.url.replace('http', 'ws')}/ws`);
  const send = (message: unknown) => (encoding === 'json' ? client.raw(deepJson(message), false) : client.raw(deepMsgpack(message), true));
  return {
    reset: async () => ((await send({ type: 'reset', data: { seed: 1 } })).data as { observation: { step: number } }).observation.step,
    step: async (action) => toReply(await send({ type: 'step', data: action })),
    stepCount: async () => ((await send({ type: 'state' })).data as { step_count: number }).step_count,
    close: async () => client.close(),
  };
}

async function httpDriver(encoding: 'json' | 'msgpack'): Promise<Driver> {
  const base = sql.server.url;
  const open = (await (await fetch(`${base}/sessions`, { method: 'POST' })).json()) as { session_id: string };
  const headers = { [SESSION_HEADER]: open.session_id, 'content-type': encoding === 'json' ? 'application/json' : MSGPACK_CONTENT_TYPE };
  const decode = async (res: Response) => {
    const bytes = Buffer.from(await res.arrayBuffer());
    return (encoding === 'json' ? JSON.parse(bytes.toString('utf8')) : unpack(bytes)) as Record<string, unknown>;
  };
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: encoding === 'json' ? deepJson(body) : deepMsgpack(body) });
    return { type: res.ok ? 'observation' : 'error', data: await decode(res) };
  };
  return {
    reset: async () => ((await post('/reset', { seed: 1 })).data as { observation: { step: number } }).observation.step,
    step: async (action) => toReply(await post('/step', { action })),
    stepCount: async () => ((await decode(await fetch(`${base}/state`, { headers }))) as { step_count: number }).step_count,
    close: async () => void (await fetch(`${base}/sessions/${open.session_id}`, { method: 'DELETE' })),
  };
}

describe.each([
  { transport: 'ws', encoding: 'json' },
  { transport: 'ws', encoding: 'msgpack' },
  { transport: 'http', encoding: 'json' },
  { transport: 'http', encoding: 'msgpack' },
] as const)('pathological actions over $transport/$encoding', ({ transport, encoding }) => {
  it('each is a judged step with a typed error (or a typed refusal), and step_count matches the observation', async () => {
    const driver = transport === 'ws' ? await wsDriver(encoding) : await httpDriver(encoding);
    const actions = encoding === 'msgpack' ? [...WIRE, ...MSGPACK_ONLY] : WIRE;
    try {
      for (const pathological of actions) {
        let step = await driver.reset();
        const action = pathological.make();
        const reply = await driver.step(action);
        if (reply.kind === 'error') {
          // Only a MessagePack frame deeper than msgpackr's recursive decoder can read is refused, with the cause.
          expect(encoding, pathological.name).toBe('msgpack');
          expect(depthOf(action), pathological.name).toBeGreaterThan(1000);
          expect(reply.code).toBe('INVALID_JSON');
          expect(reply.message).toMatch(/nested too deeply/);
        } else {
          expect(reply.step, pathological.name).toBe(step + 1);
          expect([null, ...SQL_ERROR_TYPES], pathological.name).toContain(reply.errorType);
          step = reply.step;
        }
        expect(await driver.stepCount(), pathological.name).toBe(step);
        // The session keeps serving, and counts on from the same step.
        const next = await driver.step({ name: 'describe', arguments: { table_name: 'nope' } });
        if (next.kind === 'observation' && next.errorType !== 'episode_over') {
          expect(next.step, pathological.name).toBe(step + 1);
          expect(await driver.stepCount(), pathological.name).toBe(step + 1);
        }
      }
    } finally {
      await driver.close();
    }
  }, 60_000);
});
