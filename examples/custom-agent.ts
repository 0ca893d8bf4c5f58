/**
 * Write your own SQLEnv agent: a few lines of heuristics, no model. It answers "how many …"
 * questions by finding the table the question names, counting its rows with a query, and
 * answering with the count — and gives up politely on everything else. Run it:
 *
 *   npm run build && node dist/examples/custom-agent.js
 *
 * It shows the loop every agent (and the GRPO trainer) runs: `reset`, read the observation,
 * send a tool call, read `result`/`error` and `info`, until `terminated` or `truncated`.
 */
import { pathToFileURL } from 'node:url';
import { loadDataset, make, type SqlAction, type SqlObservation } from 'sqlenv';

/** The next action for a counting heuristic, from what the episode has shown so far. */
export function countingAgent(obs: SqlObservation): SqlAction {
  const q = obs.question.toLowerCase();
  if (obs.step === 0) {
    // Pick the table whose name (or its plural) the question mentions; fall back to the first.
    const table = obs.tables.find((t) => q.includes(t.toLowerCase().replace(/_/g, ' '))) ?? obs.tables[0]!;
    return /\bhow many\b|\bnumber of\b|\bcount\b/.test(q)
      ? { name: 'query', arguments: { sql: `SELECT COUNT(*) FROM "${table}"` } }
      : { name: 'describe', arguments: { table_name: table } };
  }
  // The query tool's result is a small table; its first number is the count.
  const value = /\b\d+(\.\d+)?\b/.exec(obs.result)?.[0] ?? 'unknown';
  return { name: 'answer', arguments: { value } };
}

/** What a run of the example measured. */
export interface CustomAgentReport {
  episodes: number;
  correct: number;
  meanReturn: number;
}

/**
 * Play the first `episodes` counting questions ("How many …") of a bundled split with
 * {@link countingAgent}: it solves the unfiltered ones and shows, on the rest, what a filter costs.
 *
 * @example
 * ```ts
 * const report = await runCustomAgent({ split: 'train', episodes: 10 });
 * console.log(report.correct, '/', report.episodes);
 * ```
 */
export async function runCustomAgent(options: { split?: string; episodes?: number; log?: (line: string) => void } = {}): Promise<CustomAgentReport> {
  const split = options.split ?? 'train';
  const log = options.log ?? console.log;
  // Play only the questions this agent was written for: reset's `questionId` option picks them.
  const dataset = await loadDataset('bundled', split, { validateGold: false });
  const counting = dataset.questions.filter((q) => /^(how many|what is the (total )?number of)\b/i.test(q.question));
  await dataset.close();
  const env = make('SQLEnv-v0', { dataset: 'bundled', split });
  const report: CustomAgentReport = { episodes: Math.min(options.episodes ?? 20, counting.length), correct: 0, meanReturn: 0 };
  try {
    for (let episode = 0; episode < report.episodes; episode++) {
      let [obs] = await env.reset({ seed: episode, options: { questionId: counting[episode]!.id } });
      let total = 0;
      for (;;) {
        const [next, reward, terminated, truncated, info] = await env.step(countingAgent(obs));
        total += reward;
        obs = next;
        if (terminated || truncated) {
          if (info['is_correct'] === true) report.correct++;
          log(`${info['is_correct'] === true ? '✓' : '✗'} ${obs.question}  (return ${total.toFixed(3)})`);
          break;
        }
      }
      report.meanReturn += total / report.episodes;
    }
  } finally {
    await env.close();
  }
  log(`${report.correct}/${report.episodes} correct, mean return ${report.meanReturn.toFixed(3)}`);
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runCustomAgent();
}
