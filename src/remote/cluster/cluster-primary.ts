import cluster, { type Worker } from 'node:cluster';
import { RemoteError } from '../remote-error.js';
import type { ServerLogger } from '../server/logger.js';

/** Environment variable carrying a worker's index (0 … N−1) into the forked process. */
export const WORKER_INDEX_ENV = 'SQLENV_WORKER_INDEX';

/** Worker → primary: listening (on the shared port) and reachable by peers on `internalPort`. */
export interface WorkerReady {
  sqlenv: 'ready';
  index: number;
  host: string;
  port: number;
  internalPort: number;
}

/** Primary → workers: every running worker's loopback port, by index. */
export interface PeerTable {
  sqlenv: 'peers';
  peers: Record<number, number>;
}

/** Options of {@link startClusterPrimary}. */
export interface ClusterPrimaryOptions {
  /** Worker processes to fork (each a full server with its own sessions). */
  workers: number;
  logger: ServerLogger;
  /** Wait before restarting a worker that died; doubles while it keeps dying young, up to 30 s. Default 500 ms. */
  restartDelayMs?: number;
}

/** The primary of a running `--workers` server. */
export interface ClusterPrimary {
  /** The address every worker listens on (one port, shared through node:cluster). */
  readonly address: { host: string; port: number };
  /** SIGTERM every worker and wait until they have drained and exited; 0 when all exited cleanly. Idempotent. */
  stop(): Promise<number>;
}

function isReady(message: unknown): message is WorkerReady {
  return typeof message === 'object' && message !== null && (message as { sqlenv?: unknown }).sqlenv === 'ready';
}

/**
 * The primary process of `sqlenv serve --workers N`, on node:cluster: forks N workers (this same
 * command, told its index by {@link WORKER_INDEX_ENV}), which share one listening port; node:cluster
 * hands each new connection to the next worker. A WebSocket session lives on its connection; an HTTP
 * session id names its worker, and the workers forward each other's HTTP sessions over loopback
 * (the primary keeps them told of each other's ports). A worker that dies is restarted with the
 * same index (its sessions are lost; their clients get `unknown_session`). Resolves once every
 * worker listens; rejects, after stopping the others, if one exits first.
 *
 * @example
 * ```ts
 * if (cluster.isPrimary) {
 *   const primary = await startClusterPrimary({ workers: 4, logger: jsonLineLogger() });
 *   process.once('SIGTERM', () => void primary.stop().then((code) => process.exit(code)));
 * }
 * ```
 */
export function startClusterPrimary(options: ClusterPrimaryOptions): Promise<ClusterPrimary> {
  const { logger } = options;
  const baseDelay = options.restartDelayMs ?? 500;
  const live = new Map<number, Worker>();
  const ports = new Map<number, number>();
  const delays = new Map<number, number>();
  const timers = new Set<NodeJS.Timeout>();
  let stopping: Promise<number> | undefined;
  let address: { host: string; port: number } | undefined;
  let started = false;

  const broadcast = () => {
    const table: PeerTable = { sqlenv: 'peers', peers: Object.fromEntries(ports) };
    for (const worker of live.values()) if (worker.isConnected()) worker.send(table);
  };

  return new Promise<ClusterPrimary>((resolve, reject) => {
    const stop = (): Promise<number> => {
      stopping ??= (async () => {
        timers.forEach(clearTimeout);
        const exits = [...live.values()].map(
          (worker) =>
            new Promise<number>((done) => {
              if (worker.process.exitCode !== null) return done(worker.process.exitCode);
              worker.once('exit', (code, signal) => done(signal ? 1 : (code ?? 1)));
              worker.process.kill('SIGTERM');
            }),
        );
        const codes = await Promise.all(exits);
        return codes.every((c) => c === 0) ? 0 : 1;
      })();
      return stopping;
    };

    const fork = (index: number) => {
      const born = performance.now();
      const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
      live.set(index, worker);
      worker.on('message', (message: unknown) => {
        if (!isReady(message)) return;
        ports.set(index, message.internalPort);
        address ??= { host: message.host, port: message.port };
        broadcast();
        if (!started && ports.size === options.workers) {
          started = true;
          logger.log('workers_ready', { workers: options.workers, port: address.port });
          resolve({ address, stop });
        } else if (started) {
          logger.log('worker_restarted', { worker: index, pid: worker.process.pid });
        }
      });
      worker.once('exit', (code, signal) => {
        if (live.get(index) === worker) live.delete(index);
        ports.delete(index);
        if (stopping) return;
        if (!started) {
          reject(new RemoteError(`worker ${index} exited (${signal ?? `code ${code}`}) before listening; see its error above`));
          void stop();
          return;
        }
        broadcast();
        // A worker that dies young again waits longer each time, so a crash loop does not spin.
        const delay = performance.now() - born < 10_000 ? Math.min((delays.get(index) ?? baseDelay / 2) * 2, 30_000) : baseDelay;
        delays.set(index, delay);
        logger.log('worker_exit_error', { worker: index, pid: worker.process.pid, code, signal, restart_in_ms: delay });
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!stopping) fork(index);
        }, delay);
        timers.add(timer);
      });
    };

    for (let i = 0; i < options.workers; i++) fork(i);
  });
}
