/**
 * One step's round trip through the OpenEnv server, by transport, beside the floor — a raw `ws`
 * echo of the same request and reply sizes — and the in-process step, all in the same run. Two
 * envs: GuessNumber-v0 (tiny payloads: the protocol's own cost) and SQLEnv-v0 (a `describe`
 * step: a realistic observation).
 */
import { WebSocketServer, WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import '../envs/guess/index.js';
import { loadDataset, QueryPool } from '../envs/sql/index.js';
import { make, type Env } from '../src/gym/index.js';
import { createServer, RemoteEnv, silentLogger, WireCodec, type RemoteEnvOptions } from '../src/remote/index.js';
import { mdTable, timeIt, type BenchSection } from './harness.js';
import { abuseSection } from './remote-abuse.js';
import { loadNow, workersThroughput } from './remote-workers.js';

/** A raw ws server answering every message with `reply` bytes: the transport's floor. */
async function echoServer(reply: Buffer): Promise<{ url: string; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (ws) => ws.on('message', () => ws.send(reply, { binary: true })));
  const { port } = wss.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}`, close: () => new Promise((resolve) => wss.close(() => resolve())) };
}

async function echoClient(url: string, request: Buffer): Promise<{ roundTrip: () => Promise<void>; close: () => void }> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let waiting: (() => void) | undefined;
  ws.on('message', () => waiting?.());
  return {
    roundTrip: () =>
      new Promise<void>((resolve) => {
        waiting = resolve;
        ws.send(request, { binary: true });
      }),
    close: () => ws.close(),
  };
}

interface Case {
  name: string;
  envId: string;
  createEnv: () => Env<unknown, unknown>;
  action: unknown;
  resetSeed: number;
  /** Timed steps per path. */
  iters: number;
}

type Stats = Awaited<ReturnType<typeof timeIt>>;

/**
 * Time only the first step after each reset (the reset is not timed), so every sample sees the
 * same observation: SQLEnv's observation grows with its history, which would skew a long episode.
 */
async function timeFirstSteps(env: Env<unknown, unknown>, c: Case, iters: number): Promise<Stats> {
  const samples: number[] = [];
  for (let i = 0; i < iters + 20; i++) {
    await env.reset({ seed: c.resetSeed });
    const t0 = performance.now();
    await env.step(c.action);
    if (i >= 20) samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
  return { mean: samples.reduce((a, b) => a + b, 0) / samples.length, p50: q(0.5), p99: q(0.99), iters: samples.length };
}

/** Time one step of `c` on every path; returns table rows. */
async function measure(c: Case): Promise<(string | number)[][]> {
  const opts = { warmup: 100, minMs: 1500, minIters: 300 };
  const rows: (string | number)[][] = [];
  const us = (ms: number) => (ms * 1000).toFixed(0);
  const row = (path: string, t: Stats, floor?: Stats) =>
    rows.push([c.name, path, us(t.p50), us(t.mean), us(t.p99), floor ? `${(t.p50 / floor.p50).toFixed(1)}×` : '–', t.iters]);

  const server = createServer({ envId: c.envId, createEnv: c.createEnv, logger: silentLogger, maxSessions: 8 });
  await server.listen(0, '127.0.0.1');
  const local = c.createEnv();
  await local.reset({ seed: c.resetSeed });

  // The real wire sizes of this step, for the echo floor.
  const codec = new WireCodec();
  const [obs, reward, terminated, truncated, info] = await local.step(c.action);
  const requestBytes = codec.encode({ type: 'step', data: c.action }, 'msgpack') as Buffer;
  const replyBytes = codec.encode({ type: 'observation', data: { observation: obs, reward, done: terminated || truncated, terminated, truncated, info } }, 'msgpack') as Buffer;
  const echo = await echoServer(Buffer.alloc(replyBytes.length, 1));
  const client = await echoClient(echo.url, Buffer.alloc(requestBytes.length, 1));
  const floor = await timeIt(client.roundTrip, opts);
  row(`raw \`ws\` echo, ${requestBytes.length} B → ${replyBytes.length} B (floor)`, floor);
  row('in-process `env.step`', await timeFirstSteps(local, c, c.iters));

  const paths: [string, RemoteEnvOptions][] = [
    ['WebSocket + MessagePack', { transport: 'ws', encoding: 'msgpack' }],
    ['WebSocket + JSON', { transport: 'ws', encoding: 'json' }],
    ['HTTP session + MessagePack', { transport: 'http', encoding: 'msgpack' }],
    ['HTTP session + JSON', { transport: 'http', encoding: 'json' }],
  ];
  for (const [path, options] of paths) {
    const env = await RemoteEnv.connect(server.url, options);
    row(`RemoteEnv, ${path}`, await timeFirstSteps(env, c, c.iters), floor);
    await env.close();
  }
  client.close();
  await echo.close();
  await local.close();
  await server.close();
  return rows;
}

export default async function bench(): Promise<BenchSection> {
  const rows = await measure({
    name: 'GuessNumber-v0',
    envId: 'GuessNumber-v0',
    createEnv: () => make('GuessNumber-v0', { maxNumber: 1_000_000 }),
    action: 500_000,
    resetSeed: 1,
    iters: 2000,
  });

  const pool = new QueryPool({ size: 2 });
  const dataset = await loadDataset('bundled', 'eval', { pool });
  const probe = make('SQLEnv-v0', { dataset, pool, split: 'eval' });
  const [first] = (await probe.reset({ seed: 0 })) as [{ tables: string[] }, unknown];
  await probe.close();
  rows.push(
    ...(await measure({
      name: 'SQLEnv-v0 `describe`',
      envId: 'SQLEnv-v0',
      createEnv: () => make('SQLEnv-v0', { dataset, pool, split: 'eval' }),
      action: { name: 'describe', arguments: { table_name: first.tables[0] } },
      resetSeed: 0,
      iters: 400,
    })),
  );
  await dataset.close();
  await pool.close();

  const scaling = await measureWorkers();

  return {
    title: 'Remote env: one step round trip (OpenEnv server)',
    markdown: [
      'One `step` (request → `env.step` → reply) awaited in sequence through `createServer` on loopback, client and server in one Node process, ' +
        'beside a bare `ws` echo of the same request and reply sizes (the floor: what any WebSocket server costs) and the in-process step, measured in the same run. ' +
        'Each sample is the first step after an (untimed) reset, so every path sees the same payload. ' +
        'GuessNumber-v0 shows the protocol\'s own cost (tiny payloads); SQLEnv-v0 `describe` a realistic observation and info. ' +
        'p99 and mean are dominated by scheduling noise on a shared machine; compare p50s.',
      '',
      mdTable(['env', 'path', 'p50 µs', 'mean µs', 'p99 µs', 'p50 / floor', 'iterations'], rows),
      '',
      '### `sqlenv serve --workers 2` vs `--workers 1`',
      '',
      scaling,
      '',
      '### Under abuse',
      '',
      await abuseSection(),
    ].join('\n'),
  };
}

/**
 * Throughput of `sqlenv serve --env GuessNumber-v0 --workers N` (a real process) under 64
 * concurrent sessions playing episodes as fast as answers come, from this process; the
 * reference is `--workers 1` measured in the same run, rounds interleaved (1, 2, 1, 2) so that
 * load from elsewhere on the machine hits both alike.
 */
async function measureWorkers(): Promise<string> {
  const sessions = 64;
  const paths: [string, RemoteEnvOptions][] = [
    ['WebSocket + MessagePack', { transport: 'ws', encoding: 'msgpack' }],
    ['HTTP session + MessagePack', { transport: 'http', encoding: 'msgpack' }],
  ];
  const rows: (string | number)[][] = [];
  const loads: string[] = [loadNow()];
  for (const [path, options] of paths) {
    const rates: Record<number, number[]> = { 1: [], 2: [] };
    for (const workers of [1, 2, 1, 2]) rates[workers]!.push(await workersThroughput(workers, { ...options, sessions, ms: 4000, warmupMs: 1000 }));
    loads.push(loadNow());
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const base = mean(rates[1]!);
    for (const workers of [1, 2]) {
      const r = rates[workers]!;
      rows.push([path, workers === 1 ? '`--workers 1` (reference)' : '`--workers 2`', r.map((x) => x.toFixed(0)).join(', '), mean(r).toFixed(0), `${(mean(r) / base).toFixed(2)}×`]);
    }
  }
  return [
    `${sessions} sessions (RemoteEnv, one per session) in the bench process play GuessNumber-v0 episodes (binary search) against \`sqlenv serve --workers N\` started as a process, ` +
      '4 s timed after 1 s warm-up per round, rounds interleaved 1, 2, 1, 2. ' +
      `The load generator shares the machine's ${cpus().length} cores with the server, and other work was running (1-minute load average ${loads.join(' → ')}), ` +
      'so the ratio, measured in the same run, is what to read; the ideal on an idle machine with a separate client would approach the core count.',
    '',
    mdTable(['path', 'server', 'steps/s per round', 'mean steps/s', 'vs `--workers 1`'], rows),
  ].join('\n');
}
