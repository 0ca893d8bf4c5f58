/**
 * OpenEnv conformance of a real `sqlenv serve`: the checks of `openenv validate --url` (in
 * TypeScript, and in Python with the standard library: scripts/openenv_validate.py) in both
 * server modes; the OpenAPI document against the bodies the server really sends; the MCP
 * session lifecycle (`openenv/session/create` / `close`, `params.session_id`) as OpenEnv's own
 * tests pin it; and the `openenv.yaml` manifest against OpenEnv's manifest schema and the
 * server's tools.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { WebSocket } from 'ws';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRunningEnvironment } from './fixtures/openenv-validate.js';
import { startServeProcess, type ServeProcess } from './fixtures/serve-process.js';
import { runPython } from '../python/venv.js';

const SQL_ARGS = ['--env', 'SQLEnv-v0', '--dataset', 'bundled', '--split', 'smoke', '--query-workers', '1', '--port', '0'];

type Json = Record<string, unknown>;
interface Exchange {
  status: number;
  body: unknown;
}

async function call(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<Exchange> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

let nextId = 1;
async function rpc(url: string, method: string, params?: Json, headers?: Record<string, string>): Promise<Json> {
  const id = nextId++;
  const { status, body } = await call(`${url}/mcp`, 'POST', { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }, headers);
  expect(status).toBe(200);
  expect((body as Json)['id']).toBe(id);
  return body as Json;
}

/** `python3` (or `SQLENV_PYTHON`), for the standard-library validator; undefined when there is none. */
function stdlibPython(): string | undefined {
  for (const candidate of [process.env['SQLENV_PYTHON'], 'python3']) {
    if (candidate && spawnSync(candidate, ['-c', 'import json, urllib.request'], { encoding: 'utf8' }).status === 0) return candidate;
  }
  console.warn('*** SKIP scripts/openenv_validate.py: no python3 on PATH (the TypeScript validator still runs) ***');
  return undefined;
}

async function runPythonValidator(python: string, url: string): Promise<{ code: number; report: Json }> {
  const { code, stdout, out } = await runPython(python, ['scripts/openenv_validate.py', url], '.');
  try {
    return { code, report: JSON.parse(stdout) as Json };
  } catch {
    throw new Error(`openenv_validate.py printed no report (exit ${code}): ${out}`);
  }
}

/** Validators of the response bodies an OpenAPI document declares, by path, method and status. */
function responseValidators(doc: Json): (path: string, method: string, status: number) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // Refs in the document point at #/components/schemas/NAME: register each under that URI.
  ajv.addSchema({ components: doc['components'] }, 'openapi');
  const paths = doc['paths'] as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  return (path, method, status) => {
    const response = paths[path]?.[method]?.responses[String(status)];
    const schema = response?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`the OpenAPI document declares no JSON ${status} answer for ${method.toUpperCase()} ${path}`);
    const { $ref } = schema as { $ref?: string };
    return ajv.compile($ref ? { $ref: `openapi${$ref}` } : (schema as Json));
  };
}

function expectValid(validate: ValidateFunction, body: unknown, what: string): void {
  const ok = validate(body);
  expect(ok, `${what} does not match the OpenAPI document: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 400)}`).toBe(true);
}

const manifest = parseYaml(readFileSync('openenv.yaml', 'utf8')) as Json;

describe('sqlenv serve (simulation mode) against the OpenEnv validator', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServeProcess(SQL_ARGS);
  }, 60_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('passes every check of openenv validate --url (TypeScript reproduction)', async () => {
    const report = await validateRunningEnvironment(server.url);
    expect(report.criteria.filter((c) => !c.passed)).toEqual([]);
    expect(report).toMatchObject({ passed: true, mode: 'simulation', standardProfile: 'openenv-http/1.x' });
    expect(report.criteria.map((c) => c.id)).toEqual([
      'openapi_version_available',
      'health_endpoint',
      'metadata_endpoint',
      'schema_endpoint',
      'mcp_endpoint',
      'mode_endpoint_consistency',
    ]);
  });

  it('passes scripts/openenv_validate.py (Python standard library)', async () => {
    const python = stdlibPython();
    if (!python) return;
    const { code, report } = await runPythonValidator(python, server.url);
    expect(report['summary']).toMatchObject({ failed_criteria: [] });
    expect(report).toMatchObject({ passed: true, mode: 'simulation', standard_profile: 'openenv-http/1.x' });
    expect(code).toBe(0);
  });

  it("serves an OpenAPI document that describes the server's real bodies", async () => {
    const { status, body } = await call(`${server.url}/openapi.json`, 'GET');
    expect(status).toBe(200);
    const doc = body as Json;
    expect(doc['openapi']).toBe('3.1.0');
    const paths = Object.keys(doc['paths'] as Json);
    expect(paths).toEqual(expect.arrayContaining(['/health', '/metadata', '/schema', '/openapi.json', '/mcp', '/sessions', '/reset', '/step', '/state']));
    // The components are the env's own schemas, the objects /schema serves.
    const schema = (await call(`${server.url}/schema`, 'GET')).body as Json;
    const components = (doc['components'] as { schemas: Json }).schemas;
    expect(components['Action']).toEqual(schema['action']);
    expect(components['Observation']).toEqual(schema['observation']);
    expect(components['State']).toEqual(schema['state']);

    const validator = responseValidators(doc);
    for (const path of ['/health', '/metadata', '/schema']) expectValid(validator(path, 'get', 200), (await call(`${server.url}${path}`, 'GET')).body, `GET ${path}`);

    const opened = await call(`${server.url}/sessions`, 'POST', {});
    expectValid(validator('/sessions', 'post', 201), opened.body, 'POST /sessions');
    const session = { 'x-session-id': (opened.body as Json)['session_id'] as string };
    const reset = await call(`${server.url}/reset`, 'POST', { seed: 3 }, session);
    expectValid(validator('/reset', 'post', 200), reset.body, 'POST /reset');
    const tables = ((reset.body as Json)['observation'] as { tables: string[] }).tables;
    const step = await call(`${server.url}/step`, 'POST', { action: { name: 'describe', arguments: { table_name: tables[0] } } }, session);
    expect(step.status).toBe(200);
    expectValid(validator('/step', 'post', 200), step.body, 'POST /step');
    expectValid(validator('/state', 'get', 200), (await call(`${server.url}/state`, 'GET', undefined, session)).body, 'GET /state');
    const invalid = await call(`${server.url}/step`, 'POST', { no_action: 1 }, session);
    expect(invalid.status).toBe(422);
    expectValid(validator('/step', 'post', 422), invalid.body, 'POST /step 422');
    const stateless = await call(`${server.url}/step`, 'POST', { action: { name: 'describe', arguments: {} } });
    expect(stateless.status).toBe(409);
    expectValid(validator('/step', 'post', 409), stateless.body, 'POST /step 409');
    expectValid(validator('/mcp', 'post', 200), (await call(`${server.url}/mcp`, 'POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' })).body, 'POST /mcp');
    const closed = await call(`${server.url}/sessions/${session['x-session-id']}`, 'DELETE');
    expectValid(validator('/sessions/{session_id}', 'delete', 200), closed.body, 'DELETE /sessions/{id}');
  });

  it('answers JSON-RPC 2.0 on POST /mcp as OpenEnv does, sessions included', async () => {
    const url = server.url;
    // The validator's probe: an empty object is an invalid request, answered with HTTP 200.
    const probe = await call(`${url}/mcp`, 'POST', {});
    expect(probe.status).toBe(200);
    expect(probe.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(await rpc(url, 'no/such/method')).toMatchObject({ error: { code: -32601 } });
    const noVersion = await call(`${url}/mcp`, 'POST', { method: 'tools/list', id: 5 });
    expect(noVersion.body).toMatchObject({ error: { code: -32600 } });

    // tools/list needs no reset and no session; its names are the manifest's declared tools.
    const listed = (await rpc(url, 'tools/list'))['result'] as { tools: { name: string; inputSchema: Json }[] };
    const declared = ((manifest['validation'] as Json)['capabilities'] as Json)['declared_tools'];
    expect(listed.tools.map((t) => t.name)).toEqual(declared);

    const created = (await rpc(url, 'openenv/session/create', { seed: 2 }))['result'] as Json;
    const sessionId = created['session_id'] as string;
    expect(sessionId).toMatch(/\S/);
    // Our addition: the session's episode is started, so tools/call can play at once.
    const table = (created['observation'] as { tables: string[] }).tables[0];
    expect(((await rpc(url, 'tools/list', { session_id: sessionId }))['result'] as { tools: unknown[] }).tools).toHaveLength(listed.tools.length);
    const describe1 = (await rpc(url, 'tools/call', { name: 'describe', arguments: { table_name: table }, session_id: sessionId }))['result'] as Json;
    expect(describe1['isError']).toBe(false);
    expect(JSON.stringify(describe1['content'])).toContain(String(table));
    // The calls are steps of one episode: the session's state counts them.
    const state = await call(`${url}/state`, 'GET', undefined, { 'x-session-id': sessionId });
    expect((state.body as Json)['step_count']).toBe(1);

    expect((await rpc(url, 'openenv/session/close', { session_id: sessionId }))['result']).toEqual({ session_id: sessionId, closed: true });
    const again = await rpc(url, 'openenv/session/close', { session_id: sessionId });
    expect(again).toMatchObject({ error: { code: -32602 } });
    const missing = await rpc(url, 'openenv/session/close', {});
    expect(missing).toMatchObject({ error: { code: -32602 } });
    expect(((missing['error'] as Json)['message'] as string).toLowerCase()).toContain('session_id');
    expect(await rpc(url, 'openenv/session/close', { session_id: 'nonexistent-session-id' })).toMatchObject({ error: { code: -32602 } });
    expect(await rpc(url, 'tools/call', { name: 'describe', arguments: { table_name: table }, session_id: sessionId })).toHaveProperty('error');
  });

  it('answers openenv/session/create over the WebSocket with the connection\'s own session, idempotently', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answers: Json[] = [];
    const next = () => new Promise<Json>((resolve) => ws.once('message', (d) => resolve(JSON.parse(String(d)) as Json)));
    try {
      for (const id of [1, 2]) {
        const answer = next();
        ws.send(JSON.stringify({ type: 'mcp', data: { jsonrpc: '2.0', id, method: 'openenv/session/create', params: {} } }));
        answers.push(await answer);
      }
      const [first, second] = answers.map((a) => ((a['data'] as Json)['result'] as Json)['session_id']);
      expect(first).toMatch(/\S/);
      expect(second).toBe(first);
      const state = next();
      ws.send(JSON.stringify({ type: 'state' }));
      expect(((await state)['data'] as Json)['session_id']).toBe(first);
    } finally {
      ws.close();
    }
  });
});

describe('sqlenv serve --mode production', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServeProcess([...SQL_ARGS, '--mode', 'production']);
  }, 60_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('passes openenv validate in production mode: no /reset, /step or /state, in the document or on the wire', async () => {
    const report = await validateRunningEnvironment(server.url);
    expect(report).toMatchObject({ passed: true, mode: 'production' });
    const python = stdlibPython();
    if (python) expect((await runPythonValidator(python, server.url)).report).toMatchObject({ passed: true, mode: 'production' });
    const doc = (await call(`${server.url}/openapi.json`, 'GET')).body as { paths: Json };
    for (const path of ['/reset', '/step', '/state']) {
      expect(doc.paths).not.toHaveProperty(path);
      expect((await call(`${server.url}${path}`, path === '/state' ? 'GET' : 'POST', path === '/state' ? undefined : {})).status).toBe(404);
    }
  });

  it('still plays a whole episode through MCP sessions', async () => {
    const created = (await rpc(server.url, 'openenv/session/create', { seed: 1 }))['result'] as Json;
    const sessionId = created['session_id'] as string;
    const answer = (await rpc(server.url, 'tools/call', { name: 'answer', arguments: { value: '0' }, session_id: sessionId }))['result'] as Json;
    expect((answer['structuredContent'] as Json)['done']).toBe(true);
    expect((await rpc(server.url, 'openenv/session/close', { session_id: sessionId }))['result']).toMatchObject({ closed: true });
  });
});

describe('MCP sessions under sqlenv serve --workers 2', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServeProcess(['--env', 'GuessNumber-v0', '--port', '0', '--workers', '2']);
  }, 60_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  /** One JSON-RPC call on a fresh connection: node:cluster spreads connections over the workers. */
  function freshRpc(method: string, params: Json): Promise<Json> {
    return new Promise((resolve, reject) => {
      const req = request(`${server.url}/mcp`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(JSON.parse(text) as Json));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    });
  }

  it('reach the worker that holds them when the session is named only in params (as OpenEnv clients do)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(((await freshRpc('openenv/session/create', { seed: i }))['result'] as Json)['session_id'] as string);
    expect(new Set(ids.map((id) => id.slice(0, 3)))).toEqual(new Set(['w0-', 'w1-']));
    // Every call on a new connection: about half land on the other worker and are forwarded.
    for (const id of ids) {
      for (let k = 0; k < 2; k++) expect(await freshRpc('tools/list', { session_id: id })).toMatchObject({ result: { tools: [] } });
      expect((await freshRpc('openenv/session/close', { session_id: id }))['result']).toEqual({ session_id: id, closed: true });
    }
  });
});

describe('the validator itself', () => {
  it('fails a server whose OpenAPI paths break the mode contract, and one without /openapi.json', async () => {
    const paths: Json = { '/reset': {}, '/step': {} }; // no /state
    let servesOpenApi = true;
    const fake = createHttpServer((req, res) => {
      const answers: Json = {
        '/openapi.json': { openapi: '3.1.0', info: { title: 't', version: '1.0.0' }, paths },
        '/health': { status: 'healthy' },
        '/metadata': { name: 'x', description: 'y' },
        '/schema': { action: {}, observation: {}, state: {} },
        '/mcp': { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid' } },
      };
      const body = req.url === '/openapi.json' && !servesOpenApi ? undefined : answers[req.url ?? ''];
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? { detail: 'Not Found' }));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    try {
      const report = await validateRunningEnvironment(url);
      expect(report.passed).toBe(false);
      expect(report.criteria.filter((c) => !c.passed).map((c) => c.id)).toEqual(['mode_endpoint_consistency']);
      const python = stdlibPython();
      if (python) {
        const { code, report: pyReport } = await runPythonValidator(python, url);
        expect(code).toBe(1);
        expect(pyReport['summary']).toMatchObject({ failed_criteria: ['mode_endpoint_consistency'] });
      }
      delete paths['/reset'];
      delete paths['/step'];
      paths['/health'] = {};
      expect((await validateRunningEnvironment(url)).mode).toBe('production');
      servesOpenApi = false;
      const without = await validateRunningEnvironment(url);
      expect(without.criteria.filter((c) => !c.passed).map((c) => c.id)).toEqual(['openapi_version_available', 'mode_endpoint_consistency']);
      expect(without.standardProfile).toBe('openenv-http/unknown');
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
  });
});

describe('openenv.yaml', () => {
  it("matches OpenEnv's manifest schema: name, version, and a validation block with reward, resources, capabilities, types", () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(manifest).toMatchObject({ spec_version: 1, name: 'sqlenv', version: pkg.version, port: 8000 });
    // The normalized manifest of OpenEnv's validator (its manifest.schema.json, restated):
    // required sections, their required fields and types, no unknown keys inside them.
    const section = (properties: Json, required: string[]): Json => ({ type: 'object', properties, required, additionalProperties: false });
    const schema = section(
      {
        reward: section(
          {
            range: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number' } },
            oracle_tolerance: { type: 'number', minimum: 0 },
            floor_margin: { type: 'number', minimum: 0 },
            variance_tolerance: { type: ['number', 'null'], minimum: 0 },
          },
          ['floor_margin'],
        ),
        resources: section(
          {
            cpu: { type: 'number', exclusiveMinimum: 0 },
            memory_mb: { type: 'integer', exclusiveMinimum: 0 },
            disk_mb: { type: 'integer', exclusiveMinimum: 0 },
            episode_timeout_s: { type: 'number', exclusiveMinimum: 0 },
            gpus: { type: 'integer', minimum: 0 },
            gpu_types: { type: 'array', items: { type: 'string' } },
          },
          ['cpu', 'memory_mb', 'disk_mb', 'episode_timeout_s'],
        ),
        capabilities: section(
          {
            verifier: section({ kind: { enum: ['reward_channel', 'script'] }, entry: { type: ['string', 'null'] } }, ['kind']),
            oracle: {},
            set_state: { type: 'boolean' },
            llm_judged: { type: 'boolean' },
            rubric_tree: { type: 'boolean' },
            task_api: { type: 'boolean' },
            canaries: { type: ['string', 'null'] },
            declared_tools: { type: 'array', items: { type: 'string' } },
            declared_task_count: { type: 'object', additionalProperties: { type: 'integer' } },
          },
          ['verifier'],
        ),
        types: section({ tags: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } } }, ['tags']),
        network: { type: 'object' },
        judge: {},
        task_distribution: {},
      },
      ['reward', 'resources', 'capabilities', 'types'],
    );
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    expect(validate(manifest['validation']), JSON.stringify(validate.errors)).toBe(true);
    const [low, high] = ((manifest['validation'] as Json)['reward'] as { range: [number, number] }).range;
    expect(low).toBeLessThan(high);
  });
});
