/**
 * Drive an environment over the network with `RemoteEnv`: the same `reset`/`step` API as a
 * local env, with spaces rebuilt from the server's `/schema`.
 *
 *   npx sqlenv serve --env GuessNumber-v0 --port 8000 &
 *   SQLENV_URL=http://127.0.0.1:8000 node dist/examples/remote-client.js
 *
 * Without SQLENV_URL it starts its own server in-process (port chosen by the OS) and stops it
 * at the end. The agent plays GuessNumber by bisection; with another env it takes random actions.
 */
import { pathToFileURL } from 'node:url';
import { createServer, RemoteEnv, silentLogger, type RemoteEnvOptions } from 'sqlenv';

/** What one run of the example did. */
export interface RemoteClientReport {
  url: string;
  episodes: { steps: number; return: number; solved: boolean }[];
  tools: string[];
}

/**
 * Play `episodes` episodes against `url` (or an in-process GuessNumber-v0 server).
 *
 * @example
 * ```ts
 * const report = await runRemoteClient({ episodes: 2, encoding: 'msgpack' });
 * ```
 */
export async function runRemoteClient(options: { url?: string; episodes?: number } & RemoteEnvOptions = {}): Promise<RemoteClientReport> {
  const ownServer = options.url ? undefined : createServer({ envId: 'GuessNumber-v0', logger: silentLogger });
  if (ownServer) await ownServer.listen(0, '127.0.0.1');
  const url = options.url ?? ownServer!.url;
  const env = await RemoteEnv.connect(url, { transport: options.transport ?? 'ws', encoding: options.encoding ?? 'msgpack', token: options.token });
  const report: RemoteClientReport = { url, episodes: [], tools: (await env.listTools()).map((t) => t.name) };
  try {
    for (let episode = 0; episode < (options.episodes ?? 3); episode++) {
      await env.reset({ seed: episode });
      // GuessNumber's action space is Discrete(n, 1): bisect it; other envs get random actions.
      const space = env.actionSpace as { n?: number; start?: number; sample(): unknown };
      let [low, high] = [space.start ?? 1, (space.start ?? 1) + (space.n ?? 1) - 1];
      let total = 0;
      let steps = 0;
      for (let done = false; !done; steps++) {
        const guess = Math.floor((low + high) / 2);
        const action = space.n !== undefined ? guess : space.sample();
        const [obs, reward, terminated, truncated] = await env.step(action);
        total += reward;
        done = terminated || truncated;
        if (obs === 'Too low.') low = guess + 1;
        if (obs === 'Too high.') high = guess - 1;
      }
      report.episodes.push({ steps, return: total, solved: total > 0 });
      console.log(`episode ${episode}: ${steps} steps, return ${total.toFixed(2)}`);
    }
  } finally {
    await env.close();
    await ownServer?.close();
  }
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runRemoteClient({ url: process.env.SQLENV_URL || undefined }); // SQLENV_URL= (empty) also means an in-process server
}
