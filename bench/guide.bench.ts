/**
 * SQLEnv's decoding guide: host time per decode step over a Qwen3-sized vocabulary (151,936 token texts), for a turn
 * that rewrites a failed query — the steps where every nudge speaks: the copies, the table constraint, the identifier
 * check over the columns an error listed. The guide is made once per row from its prompt; beside it, the same guide
 * made again at every step, which is what the former `(promptText, generatedText)` interface cost, and no guide.
 */
import { join } from 'node:path';
import { NudgeApplier, loadModel, nudgedLogits, type Tokenizer } from '../src/lm/index.js';
import { sqlDecodingGuide } from '../src/recipes/sql/guide/sql-decoding-guide.js';
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

/** A rendered SQLEnv conversation: the question, the tables, a 40-row result, a query that failed on a column. */
function prompt(): string {
  const rows = Array.from({ length: 40 }, (_, i) => `| ${i + 1} | Hiker ${i} Silva | ${['Lisbon', 'Porto', 'Lyon', 'Rome'][i % 4]} | 2021-0${(i % 9) + 1}-1${i % 10} |`).join('\n');
  return [
    '<|im_start|>system\nYou answer questions about a SQLite database.<|im_end|>',
    '<|im_start|>user\nQuestion: Which hikers in Lisbon have a creation date after January 1, 2021? Give their names.\n\nDatabase: gen\n\nTables: gym, hiker, park, port, shipment, trail, warehouse, volcano<|im_end|>',
    `<|im_start|>assistant\n<tool_call>\n{"name": "query", "arguments": {"sql":"SELECT * FROM hiker LIMIT 40"}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n| id | name | city | created_on |\n| --- | --- | --- | --- |\n${rows}\n</tool_response><|im_end|>`,
    `<|im_start|>assistant\n<tool_call>\n{"name": "query", "arguments": {"sql":"SELECT name FROM hiker WHERE country = 'Lisbon'"}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\nError: no such column: country. Columns of hiker: id, name, gym_id, city, skill_level, created_on; write text values in single quotes: 'Paris'.\n</tool_response><|im_end|>`,
    '<|im_start|>assistant\n',
  ].join('\n');
}

/** The turn the guide follows, token by token (tiny-sql's tokens). */
const TURN = `<tool_call>\n{"name": "query", "arguments": {"sql":"SELECT name FROM hiker WHERE city = 'Lisbon' AND created_on > '2021-01-01'"}}`;

export default async function guideBench(): Promise<BenchSection> {
  const { tokenizer } = await loadModel(join(packageRoot(), 'models', 'tiny-sql'));
  const texts = tokenTexts(tokenizer);
  const ids = tokenizer.encode(TURN);
  const steps = ids.map((_, i) => tokenizer.decode(ids.slice(0, i)));
  const logits = new Float32Array(VOCAB);
  const text = prompt();
  // As generate does: the row's guide made once, a NudgeApplier for the call.
  const today = () => {
    const next = sqlDecodingGuide(text);
    const nudges = new NudgeApplier(texts);
    for (const generated of steps) {
      const nudge = next(generated);
      if (nudge) nudges.apply(logits, nudge);
    }
  };
  // The former interface: the prompt read at every token, the vocabulary scanned for every nudge.
  const former = () => {
    for (const generated of steps) {
      const nudge = sqlDecodingGuide(text)(generated);
      if (nudge) nudgedLogits(logits, nudge, texts);
    }
  };
  const speaking = steps.filter((g) => sqlDecodingGuide(text)(g) !== undefined).length;
  const perStep = async (fn: () => void) => (await timeIt(fn, { warmup: 2, minMs: 3000, minIters: 3 })).mean / steps.length;
  const todayMs = await perStep(today);
  const formerMs = await perStep(former);
  const readingMs = await perStep(() => steps.forEach(() => sqlDecodingGuide(text)));
  const ms = (v: number) => v.toFixed(2);
  return {
    title: "Decoding guide: SQLEnv's guide per decode step (151,936 token texts)",
    markdown: `One turn that retries a query after an unknown-column error (${steps.length} tiny-sql tokens, ${speaking} of them nudged: the query call's opening the guide asks for, the failed query's text and the listed columns in the unknown column's place, the copies inside the literals (the question's date in ISO form among them), the question's values not yet written where one starts, the table constraint after FROM, the identifier check over the columns the error listed, the column the question names), a prompt with a 40-row result; host milliseconds per step for the guide and the nudges' biases over 151,936 token texts (tiny-sql's 2,048, then pairs of them: Qwen3's vocabulary size), mean over the turn. Today a row's guide is made once from its prompt, and a call's \`NudgeApplier\` scans the vocabulary once per nudge object (the schema check returns the same object for the same state: a state that recurs in a turn is scanned once). The former \`(promptText, generatedText)\` interface read the prompt again at every token and scanned the vocabulary for every nudge at every step.

${mdTable(['guide', 'ms a step'], [
  ['today: made once per row, favoured tokens found once per nudge object', ms(todayMs)],
  ['the former interface: made at every step, the vocabulary scanned at every step', ms(formerMs)],
  ['reading the prompt alone (\`sqlDecodingGuide(prompt)\`)', ms(readingMs)],
])}
`,
  };
}
