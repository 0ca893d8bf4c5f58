/**
 * FACTORY_ERROR: a registered env whose entry point throws on construction. Every transport
 * (WebSocket, HTTP sessions, stateless HTTP, RemoteEnv) gets the code with a message naming
 * the env and the cause, and the server keeps serving the sessions it has and new ones once
 * the factory works again. A factory that fails from the start fails `listen()` instead.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { register } from '../../src/gym/registry.js';
import { createServer, jsonLineLogger, RemoteEnv, RemoteEnvError, silentLogger } from '../../src/remote/index.js';
import { startTestServer } from './fixtures/server.js';
import { TallyEnv } from './fixtures/tally-env.js';
import { openRawClient } from './ws-helpers.js';

const FLAKY_ENV_ID = 'RemoteFlakyFactory-v0';
const BROKEN_ENV_ID = 'RemoteBrokenFactory-v0';
/** While true, constructing FLAKY_ENV_ID throws (the probe at listen() time runs with it false). */
const factory = { broken: false, built: 0 };

register(FLAKY_ENV_ID, {
  entryPoint: () => {
    if (factory.broken) throw new Error('database file missing: /data/flaky.sqlite');
    factory.built++;
    return new TallyEnv();
  },
  description: 'A tally env whose construction fails on demand (remote test fixture).',
});
register(BROKEN_ENV_ID, {
  entryPoint: () => {
    throw new Error('this env cannot be built');
  },
});

type Server = Awaited<ReturnType<typeof startTestServer>>;
const servers: Server[] = [];
const logLines: string[] = [];
async function start(): Promise<Server> {
  factory.broken = false;
  const server = await startTestServer({ envId: FLAKY_ENV_ID, logger: jsonLineLogger((line) => logLines.push(line)) });
  servers.push(server);
  return server;
}
afterEach(async () => {
  factory.broken = false;
  logLines.length = 0;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const post = async (url: string, body: unknown, session?: string) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(session ? { 'x-session-id': session } : {}) }, body: JSON.stringify(body) });
  return { status: res.status, data: (await res.json()) as Record<string, unknown> };
};
const CAUSE = `Could not create ${FLAKY_ENV_ID}: database file missing: /data/flaky.sqlite`;

describe('FACTORY_ERROR', () => {
  it('WebSocket: an error frame with the cause, close 1011; open sessions keep playing and new ones work after', async () => {
    const server = await start();
    const healthy = await openRawClient(server.wsUrl);
    await healthy.request({ type: 'reset', data: { options: { target: 3 } } });

    factory.broken = true;
    const failed = await openRawClient(server.wsUrl);
    // The server sends the error as soon as the socket opens; `request` reads the next frame.
    const frame = await failed.request({ type: 'state' });
    expect(frame).toMatchObject({ type: 'error', data: { code: 'FACTORY_ERROR', message: CAUSE } });
    expect(await failed.closed).toBe(1011);

    // The session opened before is untouched, and the failure holds no capacity.
    expect((await healthy.request({ type: 'step', data: { name: 'add', arguments: { n: 3 } } })).data).toMatchObject({ observation: { total: 3 } });
    expect(server.metrics.activeSessions).toBe(1);
    factory.broken = false;
    const next = await openRawClient(server.wsUrl);
    expect((await next.request({ type: 'reset', data: { options: { target: 2 } } })).type).toBe('observation');
    expect(server.metrics.activeSessions).toBe(2);
    healthy.close();
    next.close();

    const events = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events).toContainEqual(expect.objectContaining({ event: 'factory_error', level: 'error', env_id: FLAKY_ENV_ID, message: 'database file missing: /data/flaky.sqlite' }));
    expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/sqlenv_errors_total\{source="protocol",type="FACTORY_ERROR"\} 1/);
  });

  it('HTTP: POST /sessions and stateless /reset answer 500 FACTORY_ERROR; existing HTTP sessions keep working', async () => {
    const server = await start();
    const session = (await post(`${server.url}/sessions`, {})).data.session_id as string;
    await post(`${server.url}/reset`, { options: { target: 4 } }, session);

    factory.broken = true;
    const opened = await post(`${server.url}/sessions`, {});
    expect(opened).toEqual({ status: 500, data: { code: 'FACTORY_ERROR', message: CAUSE, detail: CAUSE } });
    const stateless = await post(`${server.url}/reset`, { seed: 1 });
    expect(stateless.status).toBe(500);
    expect(stateless.data).toMatchObject({ code: 'FACTORY_ERROR', message: CAUSE });

    expect((await post(`${server.url}/step`, { action: { name: 'add', arguments: { n: 4 } } }, session)).data).toMatchObject({ observation: { total: 4 } });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    factory.broken = false;
    expect((await post(`${server.url}/sessions`, {})).status).toBe(201);
    expect(server.metrics.activeSessions).toBe(2);
  });

  it.each(['ws', 'http'] as const)('RemoteEnv over %s throws RemoteEnvError with code FACTORY_ERROR', async (transport) => {
    const server = await start();
    const schema = await RemoteEnv.fetchSchema(server.url);
    factory.broken = true;
    const env = new RemoteEnv(server.url, { transport, schema });
    const error = await env.reset().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(RemoteEnvError);
    expect(error).toMatchObject({ code: 'FACTORY_ERROR', message: `FACTORY_ERROR: ${CAUSE}` });
    await env.close();
    factory.broken = false;
    const ok = await RemoteEnv.connect(server.url, { transport });
    const [obs] = await ok.reset({ options: { target: 1 } });
    expect(obs).toMatchObject({ target: 1, total: 0 });
    await ok.close();
  });

  it('an env that can never be built fails listen() with the cause (nothing is served)', async () => {
    const server = createServer({ envId: BROKEN_ENV_ID, logger: silentLogger });
    await expect(server.listen(0, '127.0.0.1')).rejects.toThrow('this env cannot be built');
    expect(server.address).toBeUndefined();
    await server.close();
  });
});
