import cluster from 'node:cluster';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EnvServer } from '../server/create-server.js';
import { WORKER_INDEX_ENV, type PeerTable, type WorkerReady } from './cluster-primary.js';
import { PeerRouter } from './peer-router.js';

/**
 * This process's worker index when it is a `--workers` worker forked by
 * {@link startClusterPrimary}, else `undefined`.
 *
 * @example
 * ```ts
 * const index = clusterWorkerIndex();
 * const router = index === undefined ? undefined : new PeerRouter(index);
 * ```
 */
export function clusterWorkerIndex(env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (!cluster.isWorker) return undefined;
  const index = Number(env[WORKER_INDEX_ENV]);
  return Number.isSafeInteger(index) && index >= 0 ? index : undefined;
}

function isPeerTable(message: unknown): message is PeerTable {
  return typeof message === 'object' && message !== null && (message as { sqlenv?: unknown }).sqlenv === 'peers';
}

/**
 * Join the cluster once `server` listens on the shared port: open this worker's loopback port
 * (the other workers forward this worker's HTTP sessions to it), report both to the primary, and
 * keep `router`'s peer table current. `close()` shuts the loopback port after the server drained.
 *
 * @example
 * ```ts
 * const router = new PeerRouter(index);
 * const server = createServer({ envId, router });
 * const address = await server.listen(8000, '0.0.0.0');
 * const member = await joinCluster(server, router, address);
 * ```
 */
export async function joinCluster(server: EnvServer, router: PeerRouter, address: AddressInfo): Promise<{ close(): Promise<void> }> {
  const internal: Server = createHttpServer({ noDelay: true, keepAliveTimeout: 30_000 }, (req, res) => void server.handle(req, res));
  await new Promise<void>((resolve, reject) => {
    internal.once('error', reject);
    // exclusive: a cluster worker's listen() is otherwise shared with its siblings through the primary.
    internal.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      internal.off('error', reject);
      resolve();
    });
  });
  const onMessage = (message: unknown) => {
    if (isPeerTable(message)) router.setPeers(message.peers);
  };
  process.on('message', onMessage);
  const ready: WorkerReady = { sqlenv: 'ready', index: router.index, host: address.address, port: address.port, internalPort: (internal.address() as AddressInfo).port };
  process.send?.(ready);
  return {
    close: async () => {
      process.off('message', onMessage);
      router.close();
      const closed = new Promise<void>((resolve) => internal.close(() => resolve()));
      internal.closeAllConnections();
      await closed;
      // The IPC channel to the primary would keep this process alive after it drained.
      if (process.connected) process.disconnect();
    },
  };
}
