import type { Info } from '../../../src/gym/env.js';
import type { ToolCall } from '../../../src/gym/spaces/tool-call.js';
import type { SqlAgent } from '../agents/agent.js';
import { goldPlan } from '../agents/gold-lookup.js';
import type { SqlDataset } from '../datasets/sql-dataset.js';
import type { SqlObservation } from '../observation/sql-observation.js';
import { quoteIdentifier } from '../sandbox/sql-quoting.js';

/**
 * A policy that must never be paid: it does not try to answer the question, or it games the
 * reward. `usesGold` marks the privileged ones (they know the gold SQL, so the gold-leak check
 * does not apply to their episodes); `stepsAfterEnd` is how many calls it makes after the
 * episode ended (each must be refused and charged).
 */
export interface DegeneratePolicy {
  readonly name: string;
  /** What it does, for the report. */
  readonly description: string;
  readonly usesGold: boolean;
  readonly stepsAfterEnd: number;
  agent(dataset: SqlDataset): SqlAgent;
}

/** A stateless policy: the action from the observation and the step index within the episode. */
function scripted(name: string, act: (obs: SqlObservation, step: number) => ToolCall): SqlAgent {
  let step = 0;
  return {
    name,
    reset() {
      step = 0;
    },
    act(obs) {
      return act(obs, step++);
    },
  };
}

/** A policy scripted from the question's gold plan (privileged). */
function privileged(name: string, dataset: SqlDataset, act: (obs: SqlObservation, step: number, goldSql: string) => ToolCall): SqlAgent {
  let step = 0;
  let goldSql = '';
  return {
    name,
    async reset(obs: SqlObservation, info: Info) {
      step = 0;
      goldSql = (await goldPlan(dataset, String(info.question_id), obs.tables)).goldSql;
    },
    act(obs) {
      return act(obs, step++, goldSql);
    },
  };
}

const answer = (value: unknown): ToolCall => ({ name: 'answer', arguments: { value } });
const query = (sql: string): ToolCall => ({ name: 'query', arguments: { sql } });
const cycle = <T>(items: readonly T[], i: number): T => items[i % items.length]!;

/**
 * The degenerate policies `sqlenv validate` plays on every question: none may earn more than the
 * floor (the return of a harmless step followed by failure), and none may be judged correct.
 *
 * @example
 * ```ts
 * for (const policy of DEGENERATE_POLICIES) await runEpisodes(() => env, policy.agent(dataset), { episodes: 10 });
 * ```
 */
export const DEGENERATE_POLICIES: readonly DegeneratePolicy[] = Object.freeze([
  {
    name: 'empty answer',
    description: 'answer("") at once',
    usesGold: false,
    stepsAfterEnd: 0,
    agent: () => scripted('empty answer', () => answer('')),
  },
  {
    name: 'question text',
    description: 'answers with the question itself',
    usesGold: false,
    stepsAfterEnd: 0,
    agent: () => scripted('question text', (obs) => answer(obs.question)),
  },
  {
    name: 'answer spam',
    description: 'samples 20 rows of every table, then answers with every value seen',
    usesGold: false,
    stepsAfterEnd: 0,
    agent: () => {
      const seen: unknown[] = [];
      let step = 0;
      return {
        name: 'answer spam',
        reset() {
          step = 0;
          seen.length = 0;
        },
        act(obs: SqlObservation) {
          const i = step++;
          if (i > 0) seen.push(...cellsOf(obs.result));
          if (i < obs.tables.length && obs.budgetRemaining > 1) return { name: 'sample', arguments: { table_name: obs.tables[i]!, n: 20 } };
          return answer(seen);
        },
      };
    },
  },
  {
    name: 'same query repeated',
    description: 'SELECT * of the first table on every step (no answer)',
    usesGold: false,
    stepsAfterEnd: 0,
    agent: () => scripted('same query repeated', (obs) => query(`SELECT * FROM ${quoteIdentifier(obs.tables[0]!)}`)),
  },
  {
    name: 'SELECT * of every table',
    description: 'SELECT * of each table in turn until the budget runs out',
    usesGold: false,
    stepsAfterEnd: 0,
    agent: () => scripted('SELECT * of every table', (obs, i) => query(`SELECT * FROM ${quoteIdentifier(cycle(obs.tables, i))}`)),
  },
  {
    name: 'describe-only loop',
    description: 'describe and sample each table in turn until the budget runs out',
    usesGold: false,
    stepsAfterEnd: 0,
    agent: () =>
      scripted('describe-only loop', (obs, i) => {
        const table = cycle(obs.tables, Math.floor(i / 2));
        return i % 2 === 0 ? { name: 'describe', arguments: { table_name: table } } : { name: 'sample', arguments: { table_name: table, n: 1 + (i % 7) } };
      }),
  },
  {
    name: 'tool call after the end',
    description: 'a wrong answer, then two more calls',
    usesGold: false,
    stepsAfterEnd: 2,
    agent: () => scripted('tool call after the end', (obs, i) => (i === 0 ? answer('no idea') : { name: 'describe', arguments: { table_name: obs.tables[0]! } })),
  },
  {
    name: 'SQL as a value answer',
    description: 'answers with the gold SQL text where a value is expected',
    usesGold: true,
    stepsAfterEnd: 0,
    agent: (dataset) => privileged('SQL as a value answer', dataset, (_obs, _i, goldSql) => answer(goldSql)),
  },
  {
    name: 'progress farming',
    description: 'alternates the gold SQL with SELECT * (oscillating results), never answers',
    usesGold: true,
    stepsAfterEnd: 0,
    agent: (dataset) =>
      privileged('progress farming', dataset, (obs, i, goldSql) => (i % 2 === 0 ? query(goldSql) : query(`SELECT * FROM ${quoteIdentifier(obs.tables[0]!)}`))),
  },
]);

/** The cells of a rendered result table (`| a | b |` lines), as text. */
function cellsOf(result: string): string[] {
  const lines = result.split('\n').filter((l) => l.startsWith('| '));
  return lines
    .slice(2)
    .flatMap((l) => l.slice(2, -2).split(' | '))
    .filter((c) => c !== '');
}
