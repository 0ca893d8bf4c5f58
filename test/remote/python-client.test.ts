/**
 * The Python client (clients/python) and examples (examples/python) against servers this test
 * starts on 127.0.0.1: `python3 -m unittest` (the TRL adapter plays a full episode; the
 * JSON Schema sampler samples SQLEnv-v0's own /schema), then the examples, both against the
 * fixture env and against a real `sqlenv serve --env SQLEnv-v0 --dataset bundled` process (the
 * command the examples' docstrings tell users to run); trl_grpo.py's training run is in
 * test/python/trl.test.ts. Runs on $SQLENV_PYTHON, else the system
 * interpreter /usr/bin/python3 (where Debian's python3-msgpack and python3-websockets live),
 * else `python3` on PATH; skipped only when none of them runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spaceFromJSONSchema } from '../../src/gym/spaces/index.js';
import { fetchSchema } from '../../src/remote/client/transport.js';
import { startTestServer } from './fixtures/server.js';
import { MINI_SQL_ENV_ID } from './fixtures/mini-sql-env.js';
import { startSqlServer, type SqlTestServer } from './fixtures/sql-server.js';
import { startServeProcess, type ServeProcess } from './fixtures/serve-process.js';

const PYTHON = process.env['SQLENV_PYTHON'] ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const python = spawnSync(PYTHON, ['--version']).status === 0;
/** Whether the interpreter has the optional packages, so the WebSocket client must really run. */
const hasModule = (name: string) => python && spawnSync(PYTHON, ['-c', `import ${name}`]).status === 0;
const wsClient = hasModule('websockets');

type Server = Awaited<ReturnType<typeof startTestServer>>;
let server: Server;
/** SQLEnv-v0 in this process, for the unittest suite's episodes on the real env. */
let sql: SqlTestServer;
/** `sqlenv serve --env SQLEnv-v0 --dataset bundled` as a process, for the examples. */
let cli: ServeProcess;

function py(args: string[], cwd: string, env: Record<string, string> = {}) {
  // Async spawn: the servers run in this process, spawnSync would block them.
  return new Promise<{ code: number; out: string }>((resolve) => {
    const child = spawn(PYTHON, args, { cwd, env: { ...process.env, SQLENV_URL: server.url, SQLENV_SQL_URL: sql.server.url, PYTHONDONTWRITEBYTECODE: '1', ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe.runIf(python)('Python client', () => {
  beforeAll(async () => {
    [server, sql, cli] = await Promise.all([
      startTestServer({ envId: MINI_SQL_ENV_ID, maxSessions: 16 }),
      startSqlServer('smoke', { maxSessions: 4 }),
      startServeProcess(['--env', 'SQLEnv-v0', '--dataset', 'bundled', '--port', '0', '--query-workers', '1', '--max-sessions', '8']),
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await sql?.close();
    if (cli) expect(await cli.stop()).toBe(0);
  });

  it('passes its unittest suite against live servers (TRL adapter episodes, JSON Schema sampler on SQLEnv-v0)', async () => {
    const { code, out } = await py(['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'], 'clients/python');
    expect(out).toMatch(/test_plays_a_full_episode_tolerating_extra_and_missing_arguments .* ok/);
    expect(out).toMatch(/test_plays_an_episode_and_reports_errors_with_codes .* ok/);
    expect(out).toMatch(/test_full_episode_on_sqlenv .* ok/);
    // The TRL adapter forwards the model's arguments unchanged and returns only the tool's output.
    expect(out).toMatch(/test_passes_the_models_arguments_to_the_env_unchanged .* ok/);
    expect(out).toMatch(/test_returns_only_what_the_tool_produced_and_the_repairs .* ok/);
    // The sampler runs without gymnasium: offline on every space kind, and live on SQLEnv-v0's /schema.
    expect(out).toMatch(/test_every_space_kind_samples_valid_values .* ok/);
    expect(out).toMatch(/test_tool_calls_cover_every_tool_within_their_argument_schemas .* ok/);
    expect(out).toMatch(/test_samples_of_the_served_schema_are_valid_and_playable .* ok/);
    // Reset options on the real SQLEnv-v0: every documented key works, a bad one is VALIDATION_ERROR.
    expect(out).toMatch(/test_reset_options_pick_the_split_question_and_database .* ok/);
    expect(out).toMatch(/test_bad_reset_options_are_validation_errors_and_the_session_keeps_serving .* ok/);
    expect(out).toMatch(/test_trl_rows_with_a_split_play_that_split .* ok/);
    expect(out).toMatch(/test_query_result_comes_as_data_beside_the_text .* ok/);
    if (wsClient) {
      // With websockets installed (Debian's 10.x takes the asyncio fallback) the WebSocket
      // session tests ran, not skipped.
      for (const name of [
        'test_ws_plays_a_full_episode_in_every_encoding',
        'test_ws_errors_carry_codes_and_keep_the_connection',
        'test_ws_is_what_connect_picks_and_its_schema_comes_over_http',
        'test_ws_unreachable_server_is_a_connection_error',
      ]) {
        expect(out).toMatch(new RegExp(`${name} .* ok$`, 'm'));
      }
    }
    expect(code, out).toBe(0);
    // Sessions the Python side opened were closed (explicitly or by the finalizer at exit).
    expect(server.metrics.activeSessions).toBe(0);
    expect(sql.server.metrics.activeSessions).toBe(0);
  });

  it("samples SQLEnv-v0 tool calls that the server's own action space accepts", async () => {
    const script = [
      'import json, os, sys',
      "sys.path.insert(0, 'clients/python')",
      'from sqlenv_client import JsonSchemaSampler, connect',
      "with connect(os.environ['SQLENV_URL'], transport='http') as s:",
      "    actions = JsonSchemaSampler(s.schema()['action'], seed=11)",
      '    print(json.dumps([actions.sample() for _ in range(300)]))',
    ].join('\n');
    const { code, out } = await py(['-c', script], '.', { SQLENV_URL: cli.url });
    expect(code, out).toBe(0);
    const samples = JSON.parse(out) as { name: string }[];
    const space = spaceFromJSONSchema((await fetchSchema(cli.url)).action);
    expect(samples.filter((a) => !space.contains(a))).toEqual([]);
    expect(new Set(samples.map((a) => a.name))).toEqual(new Set(['describe', 'sample', 'query', 'answer']));
  });

  it('runs examples/python/gym_loop.py against the fixture env', async () => {
    const { code, out } = await py(['examples/python/gym_loop.py'], '.');
    expect(code, out).toBe(0);
    expect(out).toMatch(/episode 0: return [\d.-]+ in 3 steps, correct=True/);
    expect(out).toMatch(/episode 1: return/);
  });

  it('runs examples/python/gym_loop.py against `sqlenv serve --env SQLEnv-v0 --dataset bundled`', async () => {
    const { code, out } = await py(['examples/python/gym_loop.py'], '.', { SQLENV_URL: cli.url });
    expect(code, out).toBe(0);
    expect(out).not.toMatch(/Traceback/);
    // SQLEnv's result is a Markdown table: the example read the count out of it and answered.
    expect(out).toMatch(/query: \| count\(\*\) \| \| --- \| \| \d+ \|/);
    expect(out).toMatch(/episode 0: return [\d.-]+ in 3 steps, correct=(True|False)/);
    expect(out).toMatch(/episode 1: return [\d.-]+ in 3 steps/);
  });

  it('trl_grpo.py names an unreachable server instead of failing later', async () => {
    const { code, out } = await py(['examples/python/trl_grpo.py'], '.', { SQLENV_URL: 'http://127.0.0.1:9' });
    expect(code).toBe(1);
    expect(out).toMatch(/the server at http:\/\/127\.0\.0\.1:9 is not usable: CONNECTION_ERROR/);
    expect(out).not.toMatch(/Traceback/);
  });
});
