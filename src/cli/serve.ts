/**
 * `sqlenv serve`: serve a registered environment over the OpenEnv protocol (HTTP + WebSocket).
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { parseDatasetSource } from '../../envs/sql/datasets/dataset-source.js';
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { createServer, jsonLineLogger, silentLogger, type ServerLogger, type ServerOptions } from '../remote/index.js';
import { startClusterPrimary } from '../remote/cluster/cluster-primary.js';
import { clusterWorkerIndex, joinCluster } from '../remote/cluster/cluster-worker.js';
import { PeerRouter } from '../remote/cluster/peer-router.js';
import { CliError, CliUsageError } from './cli-error.js';

const USAGE = `usage: sqlenv serve [options]

Serve an environment over the OpenEnv protocol: HTTP (/reset /step /state /schema /metadata
/health /mcp /openapi.json /metrics, sessions via POST /sessions + X-Session-Id) and WebSocket (/ws).

  --env ID               registered env id (default SQLEnv-v0)
  --port N               port (default 8000; 0 picks a free one)
  --host H               interface (default 127.0.0.1; 0.0.0.0 to expose)
  --max-sessions N       concurrent sessions (default 64); more get CAPACITY_REACHED
  --session-timeout S    close sessions idle S seconds (default 300; 0 never)
  --reap-interval S      look for idle sessions every S seconds (default: a quarter of
                         --session-timeout, between 0.05 and 10)
  --heartbeat S          ping WebSocket clients every S seconds, drop those that miss a ping
                         (default 30; 0 off)
  --workers N|auto       server processes sharing the port (default 1; auto: one per core);
                         each has its own sessions, --max-sessions and --query-workers
  --token T              require "Authorization: Bearer T" (or set SQLENV_TOKEN)
  --dataset D            SQLEnv dataset: bundled | spider:DIR | bird:DIR | DIR
  --split NAME           SQLEnv split (e.g. train, eval)
  --step-budget N        SQLEnv steps per episode
  --kwargs JSON          more env kwargs, e.g. '{"actionMode":"strict"}'
  --query-workers N      SQLEnv: query processes kept started, shared by all sessions
                         (default 2; 1 on a single core)
  --query-spare N        SQLEnv: idle query processes kept ready beside the busy ones (default 1)
  --query-max N          SQLEnv: most query processes alive at once (default 2 × cores + spare)
  --import MODULE        import a module first (to register your own env); repeatable
  --max-body-bytes N     largest HTTP body (default 1048576)
  --max-frame-bytes N    largest WebSocket message (default 1048576)
  --max-pending N        requests one connection may have queued before the server stops
                         reading it (default 64)
  --max-unsent-bytes N   reply bytes one connection may leave unread before the server stops
                         reading it (default 4194304)
  --stall-timeout S      close a connection that stays over a bound this long (default 30)
  --validate-actions     reject actions outside the action space with 422 (default: the env decides)
  --mode M               simulation (default) | production: production serves no HTTP /reset /step
                         /state (OpenEnv's production mode; agents use POST /mcp sessions or /ws)
  --quiet                no logs (default: one JSON line per event on stderr)
`;

/** The server options a `sqlenv serve` command line asks for, plus where to listen. */
export interface ServeConfig {
  server: Omit<ServerOptions, 'logger'> & { quiet: boolean };
  port: number;
  host: string;
  imports: string[];
  /** SQLEnv: the query pool all sessions share (`QueryPool` options; unset ones take the pool's defaults). */
  queryPool: { size?: number; spare?: number; maxProcesses?: number };
  /** Server processes (node:cluster workers) sharing the port; 1 serves from this process. */
  workers: number;
}

/**
 * Parse `sqlenv serve` arguments (pure; throws `Error` with a usage hint on bad input).
 *
 * @example
 * ```ts
 * parseServeArgs(['--env', 'SQLEnv-v0', '--dataset', 'spider:/data/spider', '--port', '9000']);
 * ```
 */
export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: 'string', default: 'SQLEnv-v0' },
      port: { type: 'string', default: '8000' },
      host: { type: 'string', default: '127.0.0.1' },
      'max-sessions': { type: 'string', default: '64' },
      'session-timeout': { type: 'string', default: '300' },
      'reap-interval': { type: 'string' },
      heartbeat: { type: 'string', default: '30' },
      workers: { type: 'string', default: '1' },
      token: { type: 'string' },
      dataset: { type: 'string' },
      split: { type: 'string' },
      'step-budget': { type: 'string' },
      kwargs: { type: 'string' },
      'query-workers': { type: 'string' },
      'query-spare': { type: 'string' },
      'query-max': { type: 'string' },
      import: { type: 'string', multiple: true, default: [] },
      'max-body-bytes': { type: 'string' },
      'max-frame-bytes': { type: 'string' },
      'max-pending': { type: 'string' },
      'max-unsent-bytes': { type: 'string' },
      'stall-timeout': { type: 'string' },
      'validate-actions': { type: 'boolean', default: false },
      mode: { type: 'string', default: 'simulation' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) throw new UsageRequested();
  const envKwargs: Record<string, unknown> = values.kwargs ? parseKwargs(values.kwargs) : {};
  if (values.dataset) envKwargs.dataset = parseDatasetSource(values.dataset);
  if (values.split) envKwargs.split = values.split;
  if (values.mode !== 'simulation' && values.mode !== 'production') throw new CliUsageError(`--mode must be simulation or production, not "${values.mode}"`);
  if (values['step-budget']) envKwargs.stepBudget = integer('--step-budget', values['step-budget'], 1);
  return {
    port: integer('--port', values.port, 0),
    host: values.host,
    imports: values.import,
    queryPool: {
      ...(values['query-workers'] ? { size: integer('--query-workers', values['query-workers'], 1) } : {}),
      ...(values['query-spare'] ? { spare: integer('--query-spare', values['query-spare'], 0) } : {}),
      ...(values['query-max'] ? { maxProcesses: integer('--query-max', values['query-max'], 1) } : {}),
    },
    workers: values.workers === 'auto' ? availableParallelism() : integer('--workers', values.workers, 1),
    server: {
      envId: values.env,
      envKwargs,
      maxSessions: integer('--max-sessions', values['max-sessions'], 1),
      sessionTimeoutMs: integer('--session-timeout', values['session-timeout'], 0) * 1000,
      token: values.token ?? env.SQLENV_TOKEN,
      heartbeatMs: seconds('--heartbeat', values.heartbeat, 0) * 1000,
      ...(values['reap-interval'] ? { reapIntervalMs: seconds('--reap-interval', values['reap-interval'], 0.05) * 1000 } : {}),
      ...(values['max-body-bytes'] ? { maxBodyBytes: integer('--max-body-bytes', values['max-body-bytes'], 1) } : {}),
      ...(values['max-frame-bytes'] ? { maxFrameBytes: integer('--max-frame-bytes', values['max-frame-bytes'], 1) } : {}),
      ...(values['max-pending'] ? { maxPendingRequests: integer('--max-pending', values['max-pending'], 1) } : {}),
      ...(values['max-unsent-bytes'] ? { maxUnsentBytes: integer('--max-unsent-bytes', values['max-unsent-bytes'], 1) } : {}),
      ...(values['stall-timeout'] ? { stallTimeoutMs: Math.round(seconds('--stall-timeout', values['stall-timeout'], 0.001) * 1000) } : {}),
      actionValidation: values['validate-actions'] ? 'space' : 'env',
      mode: values.mode,
      quiet: values.quiet,
    },
  };
}

/** Thrown by {@link parseServeArgs} for `--help`. */
export class UsageRequested extends CliError {
  constructor() {
    super(USAGE);
    this.name = 'UsageRequested';
  }
}

/** Entry point of `sqlenv serve`: runs until SIGINT/SIGTERM, then drains and exits 0. */
export async function run(argv: string[]): Promise<number> {
  let config: ServeConfig;
  try {
    config = parseServeArgs(argv);
  } catch (err) {
    if (err instanceof UsageRequested) {
      console.log(USAGE);
      return 0;
    }
    console.error(`sqlenv serve: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const logger = config.server.quiet ? silentLogger : jsonLineLogger();
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  const workerIndex = clusterWorkerIndex();
  await registerBuiltInEnvs(config.server.envId);
  for (const mod of config.imports) await import(mod.startsWith('.') || mod.startsWith('/') ? pathToFileURL(resolve(mod)).href : mod);
  const { quiet, ...options } = config.server;
  const shared = options.envId.startsWith('SQLEnv') ? await shareSqlResources(options.envKwargs ?? {}, config.queryPool) : undefined;
  const router = workerIndex === undefined ? undefined : new PeerRouter(workerIndex);
  const server = createServer({
    ...options,
    envKwargs: shared?.kwargs ?? options.envKwargs,
    logger: workerIndex === undefined ? logger : withFields(logger, { worker: workerIndex, pid: process.pid }),
    ...(router ? { router } : {}),
  });
  let address;
  try {
    address = await server.listen(config.port, config.host);
  } catch (err) {
    await server.close();
    await shared?.close();
    throw err;
  }
  const member = router ? await joinCluster(server, router, address) : undefined;
  if (!quiet && !member) console.error(`sqlenv serve: ${options.envId} on http://${address.address}:${address.port} (WebSocket /ws)`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.off('disconnect', stop);
      void server
        .close()
        .then(() => member?.close())
        .then(() => shared?.close())
        .then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // A worker whose primary is gone drains and exits instead of lingering.
    if (member) process.on('disconnect', stop);
  });
  return 0;
}

/** `--workers N`: fork the workers, print the address once they all listen, stop them on SIGINT/SIGTERM. */
async function runPrimary(config: ServeConfig, logger: ServerLogger): Promise<number> {
  const primary = await startClusterPrimary({ workers: config.workers, logger });
  if (!config.server.quiet) {
    console.error(`sqlenv serve: ${config.server.envId} on http://${primary.address.host}:${primary.address.port} (WebSocket /ws, ${config.workers} worker processes)`);
  }
  return new Promise<number>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void primary.stop().then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function withFields(logger: ServerLogger, fields: Record<string, unknown>): ServerLogger {
  return { log: (event, more = {}) => logger.log(event, { ...fields, ...more }) };
}

/**
 * SQLEnv sessions share one query pool and one loaded dataset (gold results cached once)
 * instead of each session starting its own; this command owns them and closes them after the
 * server has drained.
 */
async function shareSqlResources(kwargs: Record<string, unknown>, queryPool: ServeConfig['queryPool']): Promise<{ kwargs: Record<string, unknown>; close: () => Promise<void> }> {
  const sql = await import('../../envs/sql/index.js');
  const pool = new sql.QueryPool(queryPool);
  try {
    const source = (kwargs.dataset ?? 'bundled') as Parameters<typeof sql.loadDataset>[0];
    const dataset = await sql.loadDataset(source, String(kwargs.split ?? 'train'), { pool });
    return {
      // Text rendering on by default: text clients (the Python TRL adapter) get SQLEnv's own view.
      kwargs: { renderMode: 'ansi', ...kwargs, dataset, pool },
      close: async () => {
        await dataset.close();
        await pool.close();
      },
    };
  } catch (err) {
    await pool.close();
    throw err;
  }
}

/** Register the project's envs; a failure matters only for the env being served. */
async function registerBuiltInEnvs(envId: string): Promise<void> {
  await import('../../envs/guess/index.js');
  try {
    await import('../../envs/sql/index.js');
  } catch (err) {
    if (envId.startsWith('SQLEnv')) throw err;
  }
}

function seconds(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min) throw new CliUsageError(`${flag} needs a number of seconds ≥ ${min}, got "${text}"`);
  return n;
}

function integer(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) throw new CliUsageError(`${flag} needs an integer ≥ ${min}, got "${text}"`);
  return n;
}

function parseKwargs(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliUsageError(`--kwargs must be a JSON object: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliUsageError('--kwargs must be a JSON object');
  return value as Record<string, unknown>;
}
