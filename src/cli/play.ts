/**
 * `sqlenv play`: a human plays SQLEnv in the terminal. Type actions in any form the environment
 * tolerates — `DESCRIBE singer`, `QUERY: SELECT ...`, `describe(table_name="singer")`, JSON — and
 * see the observation a model would see.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { parseDatasetSource } from '../../envs/sql/datasets/dataset-source.js';
import { renderObservation } from '../../envs/sql/observation/render-observation.js';
import { SQLEnv } from '../../envs/sql/sql-env.js';
import { SQL_TOOLS } from '../../envs/sql/tools/registry.js';

const USAGE = `usage: sqlenv play [--dataset bundled|spider:DIR|bird:DIR|DIR] [--split NAME] [--seed S]
                   [--question ID] [--step-budget N]

Type one action per line, e.g.
  DESCRIBE singer
  sample(table_name="singer", n=3)
  QUERY: SELECT count(*) FROM singer
  {"name": "answer", "arguments": {"value": 6}}
Commands: :tools (list the tools), :help, :quit`;

/** Where `play` reads and writes (the terminal by default; streams in tests). */
export interface PlayIo {
  input: Readable;
  output: Writable;
}

/** Entry point of `sqlenv play`; returns the exit code. */
export async function run(argv: string[], io: PlayIo = { input: process.stdin, output: process.stdout }): Promise<number> {
  const write = (text: string) => io.output.write(`${text}\n`);
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        dataset: { type: 'string', default: 'bundled' },
        split: { type: 'string', default: 'train' },
        seed: { type: 'string' },
        question: { type: 'string' },
        'step-budget': { type: 'string', default: '10' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    write(`sqlenv play: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    write(USAGE);
    return 0;
  }
  const env = new SQLEnv({ dataset: parseDatasetSource(values.dataset), split: values.split, stepBudget: Number(values['step-budget']) });
  const lines = createInterface({ input: io.input, terminal: false });
  // The async iterator buffers lines, so piped input typed ahead is not lost.
  const pending = lines[Symbol.asyncIterator]();
  const prompt = async (text: string): Promise<string | undefined> => {
    io.output.write(text);
    const next = await pending.next();
    return next.done ? undefined : next.value;
  };
  let seed = values.seed === undefined ? undefined : Number(values.seed);
  try {
    for (;;) {
      const [obs] = await env.reset({
        ...(seed === undefined ? {} : { seed }),
        ...(values.question ? { options: { questionId: values.question } } : {}),
      });
      write(`\n${renderObservation(obs)}\n`);
      let done = false;
      while (!done) {
        const line = await prompt('action> ');
        if (line === undefined || line.trim() === ':quit') return 0;
        if (line.trim() === '') continue;
        if (line.trim() === ':help') {
          write(USAGE);
          continue;
        }
        if (line.trim() === ':tools') {
          for (const tool of SQL_TOOLS) write(`  ${tool.name}: ${tool.description}`);
          continue;
        }
        const [next, reward, terminated, truncated, info] = await env.step(line);
        write(`\n${renderObservation(next)}`);
        const repairs = (info.repairs as { detail: string }[]).map((r) => r.detail);
        if (repairs.length > 0) write(`(read your action with repairs: ${repairs.join('; ')})`);
        write(`reward ${reward.toFixed(3)}${info.error_type ? ` — error: ${String(info.error_type)}` : ''}\n`);
        done = terminated || truncated;
        if (done) write(`Episode over: ${info.is_correct ? 'correct!' : 'not correct.'} Gold SQL: ${String(info.gold_sql)}`);
      }
      const again = await prompt('Play another? [y/N] ');
      if (!again || !/^y/i.test(again.trim())) return 0;
      if (seed !== undefined) seed++;
      values.question = undefined;
    }
  } catch (err) {
    write(`sqlenv play: ${(err as Error).message}`);
    return 1;
  } finally {
    lines.close();
    await env.close();
  }
}
