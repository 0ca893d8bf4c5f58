/**
 * Step many SQLEnv episodes at once with a vector env: the batched loop an RL trainer runs.
 * The oracle agent plays every sub-env; finished sub-envs reset themselves (next-step autoreset).
 *
 *   npm run build && node dist/examples/vector-rollout.js
 *
 * `SyncVectorEnv` steps its sub-envs concurrently in one thread — enough for SQLEnv, whose
 * queries already run in child processes; `AsyncVectorEnv` puts sub-envs in worker threads for
 * environments whose steps burn CPU in JavaScript.
 */
import { pathToFileURL } from 'node:url';
import { OracleAgent, SyncVectorEnv, loadDataset, make, type Info, type SqlAction, type SqlObservation } from 'sqlenv';

/** What a run of the example measured. */
export interface VectorRolloutReport {
  numEnvs: number;
  steps: number;
  episodes: number;
  correct: number;
  stepsPerSecond: number;
}

/**
 * Run `steps` vector steps of `numEnvs` SQLEnv-v0 sub-envs on a bundled split with oracle agents.
 *
 * @example
 * ```ts
 * const report = await runVectorRollout({ numEnvs: 4, steps: 50 });
 * ```
 */
export async function runVectorRollout(options: { numEnvs?: number; steps?: number; split?: string; log?: (line: string) => void } = {}): Promise<VectorRolloutReport> {
  const numEnvs = options.numEnvs ?? 8;
  const split = options.split ?? 'smoke';
  const log = options.log ?? console.log;
  // One dataset (questions + cached gold results) shared by the agents; each env loads its own.
  const dataset = await loadDataset('bundled', split);
  const envs = new SyncVectorEnv<SqlObservation, SqlAction>(
    Array.from({ length: numEnvs }, () => () => make('SQLEnv-v0', { dataset: 'bundled', split })),
  );
  const agents = Array.from({ length: numEnvs }, () => new OracleAgent(dataset));
  const report: VectorRolloutReport = { numEnvs, steps: options.steps ?? 100, episodes: 0, correct: 0, stepsPerSecond: 0 };
  try {
    let [obs, infos] = await envs.reset({ seed: 0 });
    await Promise.all(agents.map((a, i) => a.reset(obs[i]!, infos[i] as Info)));
    // Next-step autoreset (Gymnasium's default): the step after an episode ends resets that
    // sub-env, ignores its action and returns the new episode's first observation.
    const resetting = new Array<boolean>(numEnvs).fill(false);
    const started = performance.now();
    for (let t = 0; t < report.steps; t++) {
      const actions = await Promise.all(agents.map((a, i) => a.act(obs[i]!, infos[i] as Info)));
      const [next, , terminated, truncated, nextInfos] = await envs.step(actions);
      for (let i = 0; i < numEnvs; i++) {
        if (resetting[i]) {
          resetting[i] = false;
          await agents[i]!.reset(next[i]!, nextInfos[i] as Info);
        } else if (terminated[i] || truncated[i]) {
          resetting[i] = true;
          report.episodes++;
          if ((nextInfos[i] as Info)['is_correct'] === true) report.correct++;
        }
      }
      obs = next;
      infos = nextInfos;
    }
    report.stepsPerSecond = (report.steps * numEnvs) / ((performance.now() - started) / 1000);
  } finally {
    await envs.close();
    await dataset.close();
  }
  log(`${numEnvs} envs × ${report.steps} steps: ${report.episodes} episodes, ${report.correct} correct, ${report.stepsPerSecond.toFixed(0)} env-steps/s`);
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runVectorRollout();
}
