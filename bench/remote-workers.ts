/** Steps/s of `sqlenv serve --workers 2` vs `--workers 1`: many concurrent sessions, closed loop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RemoteEnv, type RemoteEnvOptions, type WireSchema } from '../src/remote/index.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');

/** `sqlenv serve --env GuessNumber-v0 --workers N` as a process; resolves with its URL once it listens. */
function serve(workers: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--env', 'GuessNumber-v0', '--port', '0', '--workers', String(workers), '--max-sessions', '256'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      const m = /on (http:\/\/[\d.]+:\d+)/.exec(log);
      if (m) resolve({ url: m[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`sqlenv serve exited with ${code}: ${log}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Steps/s of `sessions` envs that each play GuessNumber episodes (binary search) as fast as the
 * server answers, for `ms` after a warm-up of `warmupMs`.
 */
export async function workersThroughput(workers: number, options: RemoteEnvOptions & { sessions: number; ms: number; warmupMs: number }): Promise<number> {
  const { url, child } = await serve(workers);
  try {
    const schema: WireSchema = await RemoteEnv.fetchSchema(url);
    const envs = await Promise.all(Array.from({ length: options.sessions }, () => RemoteEnv.connect<string, number>(url, { ...options, schema })));
    let counting = false;
    let steps = 0;
    let stopAt = Infinity;
    const play = async (env: RemoteEnv<string, number>, seed: number) => {
      while (performance.now() < stopAt) {
        await env.reset({ seed: seed++ });
        let [low, high] = [1, 100];
        for (;;) {
          const guess = (low + high) >> 1;
          const [obs, , terminated] = await env.step(guess);
          if (counting) steps++;
          if (terminated || performance.now() >= stopAt) break;
          if (obs.startsWith('Too low')) low = guess + 1;
          else high = guess - 1;
        }
      }
    };
    const start = performance.now();
    stopAt = start + options.warmupMs + options.ms;
    const loops = envs.map((env, i) => play(env, i * 10_000));
    await new Promise((r) => setTimeout(r, options.warmupMs));
    counting = true;
    const t0 = performance.now();
    await Promise.all(loops);
    const seconds = (performance.now() - t0) / 1000;
    await Promise.all(envs.map((e) => e.close()));
    return steps / seconds;
  } finally {
    await stop(child);
  }
}

/** Load average over the last minute, for the report (the machine is shared). */
export const loadNow = () => loadavg()[0]!.toFixed(1);
