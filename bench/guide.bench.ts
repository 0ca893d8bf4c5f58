/**
 * SQLEnv's decoding guide: host time per decode step over a Qwen3-sized vocabulary (151,936 token texts), for a turn
 * that rewrites a failed query — the steps where every nudge speaks: the copies, the table constraint, the identifier
 * check over the columns an error listed. The guide is made once per row and turn from the episode so far; beside it,
 * the same guide made again at every step, which is what the former `(promptText, generatedText)` interface cost.
 */
import { join } from 'node:path';
import { NudgeApplier, loadModel, nudgedLogits, type Tokenizer } from '../src/lm/index.js';
import { sqlDecodingGuide } from '../src/recipes/sql/guide/sql-decoding-guide.js';
import { renderSqlStepResult } from '../src/recipes/sql/task/sql-task.js';
import { renderFeedback, renderObservation, type SqlFeedback, type SqlObservation } from '../envs/sql/index.js';
import type { GuideContext } from '../src/train/rollout/guide-context.js';
import { packageRoot } from '../src/base/package-root.js';
import { mdTable, timeIt, type BenchSection } from './harness.js';

const VOCAB = 151_936;

/** tiny-sql's 2,048 token texts, then pairs of them and capitalised forms, to Qwen3's vocabulary size (deterministic). */
function tokenTexts(tokenizer: Tokenizer): string[] {
  const base = tokenizer.tokenTexts().filter((t) => t.length > 0);
  const out = [...base];
  for (let i = 0; out.length < VOCAB; i++) {
    const a = base[i % base.length]!;
    const b = base[(i * 7919) % base.length]!;
    out.push(i % 3 === 0 ? a[0]!.toUpperCase() + a.slice(1) + b : a + b);
  }
  return out;
}

/** A SQLEnv episode as the guide reads it: the question, the tables, a 40-row result, a query that failed on a column. */
function episode(): GuideContext<SqlObservation> {
  const rows = Array.from({ length: 40 }, (_, i) => `| ${i + 1} | Hiker ${i} Silva | ${['Lisbon', 'Porto', 'Lyon', 'Rome'][i % 4]} | 2021-0${(i % 9) + 1}-1${i % 10} |`).join('\n');
  const first: SqlObservation = {
    question: 'Which hikers in Lisbon have a creation date after January 1, 2021? Give their names.',
    evidence: '',
    dbId: 'gen',
    tables: ['gym', 'hiker', 'park', 'port', 'shipment', 'trail', 'warehouse', 'volcano'],
    columns: [],
    schema: '',
    result: '',
    error: '',
    step: 0,
    budgetRemaining: 6,
    history: [],
  };
  const unknown: SqlFeedback = { kind: 'unknown_column', column: 'country', candidates: [{ table: 'hiker', columns: ['id', 'name', 'gym_id', 'city', 'skill_level', 'created_on'], more: 0 }] };
  const listed = { ...first, result: `| id | name | city | created_on |\n| --- | --- | --- | --- |\n${rows}`, step: 1, budgetRemaining: 5 };
  const failed = { ...first, error: renderFeedback(unknown), step: 2, budgetRemaining: 4 };
  const turns = [
    '<tool_call>\n{"name": "query", "arguments": {"sql":"SELECT * FROM hiker LIMIT 40"}}\n</tool_call>',
    `<tool_call>\n{"name": "query", "arguments": {"sql":"SELECT name FROM hiker WHERE country = 'Lisbon'"}}\n</tool_call>`,
  ];
  return {
    observations: [first, listed, failed],
    infos: [{}, { tool: 'query', error_type: null, feedback: [] }, { tool: 'query', error_type: 'sql_error', feedback: [unknown] }],
    turns,
    transcript: [renderObservation(first), turns[0]!, renderSqlStepResult(listed), turns[1]!, renderSqlStepResult(failed)],
    tools: [],
  };
}

/** The turn the guide follows, token by token (tiny-sql's tokens). */
const TURN = `<tool_call>\n{"name": "query", "arguments": {"sql":"SELECT name FROM hiker WHERE city = 'Lisbon' AND created_on > '2021-01-01'"}}`;

export default async function guideBench(): Promise<BenchSection> {
  const { tokenizer } = await loadModel(join(packageRoot(), 'models', 'tiny-sql'));
  const texts = tokenTexts(tokenizer);
  const ids = tokenizer.encode(TURN);
  const steps = ids.map((_, i) => tokenizer.decode(ids.slice(0, i)));
  const logits = new Float32Array(VOCAB);
  const context = episode();
  // As generate does: the row's guide made once, a NudgeApplier for the call.
  const today = () => {
    const next = sqlDecodingGuide(context);
    const nudges = new NudgeApplier(texts);
    for (const generated of steps) {
      const nudge = next(generated);
      if (nudge) nudges.apply(logits, nudge);
    }
  };
  // The former interface: the episode read at every token, the vocabulary scanned for every nudge.
  const former = () => {
    for (const generated of steps) {
      const nudge = sqlDecodingGuide(context)(generated);
      if (nudge) nudgedLogits(logits, nudge, texts);
    }
  };
  const speaking = steps.filter((g) => sqlDecodingGuide(context)(g) !== undefined).length;
  const perStep = async (fn: () => void) => (await timeIt(fn, { warmup: 2, minMs: 3000, minIters: 3 })).mean / steps.length;
  const todayMs = await perStep(today);
  const formerMs = await perStep(former);
  const readingMs = await perStep(() => steps.forEach(() => sqlDecodingGuide(context)));
  const ms = (v: number) => v.toFixed(2);
  return {
    title: "Decoding guide: SQLEnv's guide per decode step (151,936 token texts)",
    markdown: `One turn that retries a query after an unknown-column error (${steps.length} tiny-sql tokens, ${speaking} of them nudged: the query call's opening the guide asks for, the failed query's text and the listed columns in the unknown column's place, the copies inside the literals (the question's date in ISO form among them), the question's values not yet written where one starts, the table constraint after FROM, the identifier check over the columns the error listed, the column the question names), an episode with a 40-row result; host milliseconds per step for the guide and the nudges' biases over 151,936 token texts (tiny-sql's 2,048, then pairs of them: Qwen3's vocabulary size), mean over the turn. Today a row's guide is made once a turn from the episode so far (its observations, infos and turns), and a call's \`NudgeApplier\` scans the vocabulary once per nudge object (the schema check returns the same object for the same state: a state that recurs in a turn is scanned once). The former \`(promptText, generatedText)\` interface read the conversation again at every token and scanned the vocabulary for every nudge at every step.

${mdTable(['guide', 'ms a step'], [
  ['today: made once per row, favoured tokens found once per nudge object', ms(todayMs)],
  ['the former interface: made at every step, the vocabulary scanned at every step', ms(formerMs)],
  ['reading the episode alone (\`sqlDecodingGuide(context)\`)', ms(readingMs)],
])}
`,
  };
}
