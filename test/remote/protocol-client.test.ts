/**
 * A client written only from the protocol document (docs/remote.md and the OpenEnv protocol
 * facts), with raw `ws` and `fetch` — no RemoteEnv — playing full episodes over WebSocket
 * (JSON and MessagePack) and over HTTP sessions.
 */
import { pack, unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './fixtures/use-test-server.js';
import { tallyPlan } from './fixtures/tally-env.js';
import { openRawClient } from './ws-helpers.js';

const server = useTestServer();

describe.each(['json', 'msgpack'] as const)('WebSocket /ws (%s frames)', (encoding) => {
  it('plays a full episode: reset, steps, state, close', async () => {
    const client = await openRawClient(server().wsUrl);
    const reset = await client.request({ type: 'reset', data: { seed: 7, options: { target: 21 }, episode_id: 'ep-1' } }, encoding);
    expect(reset.__binary).toBe(encoding === 'msgpack');
    expect(reset.type).toBe('observation');
    const first = reset.data as { observation: { target: number; total: number }; reward: null; done: boolean; info: Record<string, unknown> };
    expect(first.observation).toEqual({ target: 21, total: 0, message: 'Reach 21.' });
    expect(first.reward).toBeNull();
    expect(first.done).toBe(false);
    expect(first.info.target_source).toBe('options');

    let last: Record<string, unknown> = {};
    let total = 0;
    for (const action of tallyPlan(21)) {
      const reply = await client.request({ type: 'step', data: action }, encoding);
      expect(reply.type).toBe('observation');
      last = reply.data as Record<string, unknown>;
      total += last.reward as number;
    }
    expect(last).toMatchObject({ done: true, terminated: true, truncated: false, reward: 1, info: { is_correct: true } });
    expect(total).toBeCloseTo(1 + 0.01 * 3);

    const state = await client.request({ type: 'state' }, encoding);
    expect(state).toMatchObject({ type: 'state', data: { episode_id: 'ep-1', step_count: 4, done: true, terminated: true } });

    const tools = await client.request({ type: 'step', data: { type: 'list_tools' } }, encoding);
    const toolNames = ((tools.data as { observation: { tools: { name: string; input_schema: unknown }[] } }).observation.tools).map((t) => t.name);
    expect(toolNames).toEqual(['add', 'finish', 'fail', 'slow']);

    await client.request({ type: 'reset', data: { options: { target: 3 } } }, encoding);
    const called = await client.request({ type: 'step', data: { type: 'call_tool', tool_name: 'add', arguments: { n: 3 } } }, encoding);
    expect((called.data as { observation: unknown }).observation).toMatchObject({ tool_name: 'add', result: { total: 3 } });

    const rpc = await client.request({ type: 'mcp', data: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'finish', arguments: {} } } }, encoding);
    expect(rpc.type).toBe('mcp');
    expect(rpc.data).toMatchObject({ jsonrpc: '2.0', id: 9, result: { isError: false, structuredContent: { reward: 1, done: true } } });

    client.ws.send(JSON.stringify({ type: 'close' }));
    expect(await client.closed).toBe(1000);
  });
});

/** fetch with the session header and an encoding; decodes the answer. */
async function call(method: string, path: string, body?: unknown, opts: { session?: string; msgpack?: boolean } = {}) {
  const headers: Record<string, string> = {};
  if (opts.session) headers['X-Session-Id'] = opts.session;
  if (opts.msgpack) headers.accept = headers['content-type'] = 'application/msgpack';
  else headers['content-type'] = 'application/json';
  const payload = body === undefined ? undefined : opts.msgpack ? pack(body) : JSON.stringify(body);
  const res = await fetch(`${server().url}${path}`, { method, headers, body: payload });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const data = bytes.length === 0 ? undefined : type.includes('msgpack') ? unpack(bytes) : type.includes('json') ? JSON.parse(bytes.toString()) : bytes.toString();
  return { status: res.status, data: data as Record<string, unknown> & string, type };
}

describe.each([false, true])('HTTP sessions (msgpack=%s)', (msgpack) => {
  it('plays a full episode with X-Session-Id', async () => {
    const created = await call('POST', '/sessions', undefined, { msgpack });
    expect(created.status).toBe(201);
    const session = created.data.session_id as string;
    expect(session).toMatch(/[0-9a-f-]{36}/);

    const reset = await call('POST', '/reset', { seed: 1, options: { target: 12 } }, { session, msgpack });
    expect(reset.status).toBe(200);
    expect(reset.type).toContain(msgpack ? 'msgpack' : 'json');
    expect(reset.data.observation).toMatchObject({ target: 12, total: 0 });

    let last: Record<string, unknown> = {};
    for (const action of tallyPlan(12)) last = (await call('POST', '/step', { action }, { session, msgpack })).data;
    expect(last).toMatchObject({ reward: 1, done: true, info: { is_correct: true } });

    const state = await call('GET', '/state', undefined, { session, msgpack });
    expect(state.data).toMatchObject({ session_id: session, step_count: 3, done: true, episode_return: 1.02 });

    // Both ways of ending a session: DELETE /sessions/:id, or POST /close with the header.
    const closed = msgpack ? await call('POST', '/close', undefined, { session, msgpack }) : await call('DELETE', `/sessions/${session}`);
    expect(closed.status).toBe(200);
    expect(closed.data).toEqual({ session_id: session, closed: true });
    const gone = await call('POST', '/step', { action: { name: 'finish', arguments: {} } }, { session });
    expect(gone.status).toBe(404);
    expect(gone.data.code).toBe('SESSION_ERROR');
  });
});

describe('OpenEnv stateless HTTP and info routes', () => {
  it('answers /reset statelessly and refuses a plain /step that has no episode', async () => {
    const reset = await call('POST', '/reset', { seed: 3 });
    expect(reset.status).toBe(200);
    expect(reset.data).toMatchObject({ reward: null, done: false });
    const step = await call('POST', '/step', { action: { name: 'finish', arguments: {} } });
    expect(step.status).toBe(409);
    expect(step.data).toMatchObject({ code: 'SESSION_ERROR', reason: 'reset_needed', stateless: true });
    // The answer says why (a fresh env per request) and what to do instead, as docs/remote.md says.
    expect(step.data.message).toMatch(/stateless .*fresh env .*POST \/sessions.*X-Session-Id.*\/ws/);
    // Listing tools needs no episode, so it works statelessly.
    const tools = await call('POST', '/step', { action: { type: 'list_tools' } });
    expect(tools.status).toBe(200);
    expect((tools.data.observation as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('add');
    expect((await call('GET', '/state')).data).toMatchObject({ episode_id: null, step_count: 0 });
  });

  it('serves /health, /metadata, /schema with the env\'s own schemas, /metrics', async () => {
    expect((await call('GET', '/health')).data).toEqual({ status: 'healthy' });
    const metadata = (await call('GET', '/metadata')).data as Record<string, unknown>;
    expect(metadata).toMatchObject({ name: 'RemoteTally-v0', description: expect.stringContaining('target') });
    // The documentation link is one this server serves.
    const docs = await call('GET', String(metadata.documentation_url));
    expect(docs.status).toBe(200);
    expect(docs.data).toMatchObject({ openapi: expect.any(String), paths: expect.objectContaining({ '/metadata': expect.any(Object) }) });
    const schema = (await call('GET', '/schema')).data as Record<string, Record<string, unknown>>;
    expect(schema.action!['x-space']).toBe('ToolCallSpace');
    expect(schema.observation!['x-space']).toBe('Dict');
    expect(Object.keys(schema.state!.properties as object)).toContain('episode_return');
    const metrics = await call('GET', '/metrics');
    expect(metrics.type).toContain('text/plain');
    expect(metrics.data).toMatch(/^sqlenv_steps_total \d+$/m);
    expect(metrics.data).toMatch(/sqlenv_step_latency_seconds_bucket\{le="\+Inf"\} \d+/);
  });

  it('speaks JSON-RPC on POST /mcp (tools/list, tools/call within a session)', async () => {
    const list = await call('POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect((list.data.result as { tools: { name: string; inputSchema: unknown }[] }).tools[0]).toMatchObject({ name: 'add', inputSchema: { type: 'object' } });
    const session = (await call('POST', '/sessions')).data.session_id as string;
    await call('POST', '/reset', { options: { target: 5 } }, { session });
    const added = await call('POST', '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { n: 5 } } }, { session });
    expect(added.data).toMatchObject({ id: 2, result: { isError: false, structuredContent: { observation: { tool_name: 'add', result: { total: 5 } } } } });
    const unknown = await call('POST', '/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } }, { session });
    expect(unknown.data).toMatchObject({ id: 3, error: { code: -32602 } });
    const bad = await call('POST', '/mcp', { jsonrpc: '2.0', id: 4, method: 'resources/list' });
    expect(bad.data).toMatchObject({ error: { code: -32601 } });
    await call('DELETE', `/sessions/${session}`);
  });
});
