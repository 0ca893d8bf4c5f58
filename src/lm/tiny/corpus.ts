import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatTemplate, FALLBACK_CHAT_TEMPLATE, type ChatMessage } from '../tokenizer/chat-template.js';

interface QuestionRecord {
  readonly question?: unknown;
  readonly query?: unknown;
  readonly db_id?: unknown;
}

/**
 * Tool signatures used only to make tokenizer-training text look like the SQL agent
 * transcripts the tiny models will see (the environment defines the real tools; the language
 * model layer must not depend on it).
 */
const TRANSCRIPT_TOOLS = [
  { name: 'describe', description: 'Show the columns of a table.', parameters: { type: 'object', properties: { table_name: { type: 'string' } }, required: ['table_name'] } },
  { name: 'sample', description: 'Show some rows of a table.', parameters: { type: 'object', properties: { table_name: { type: 'string' }, n: { type: 'integer' } }, required: ['table_name'] } },
  { name: 'query', description: 'Run a read-only SQL query.', parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] } },
  { name: 'answer', description: 'Submit the final answer.', parameters: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } },
];

/** Questions and SQL that always exist, so a tokenizer can be trained without bundled data. */
const BUILT_IN_PAIRS: readonly (readonly [string, string, string])[] = [
  ['How many singers are there?', 'SELECT count(*) FROM singer', 'singer'],
  ['What are the names of the stadiums with capacity above 10000?', 'SELECT name FROM stadium WHERE capacity > 10000', 'stadium'],
  ['List the average age of all employees.', 'SELECT avg(age) FROM employee', 'employee'],
  ['Which country has the most cities?', 'SELECT country FROM city GROUP BY country ORDER BY count(*) DESC LIMIT 1', 'city'],
  ['Show the titles of courses taught by each teacher, ordered by title.', 'SELECT T1.title, T2.name FROM course AS T1 JOIN teacher AS T2 ON T1.teacher_id = T2.id ORDER BY T1.title', 'course'],
  ['What is the maximum and minimum price of products?', 'SELECT max(price), min(price) FROM products', 'products'],
];

/**
 * Texts to train the tiny models' tokenizer on: the questions and gold SQL of the bundled
 * dataset's train split (when `data/bundled` exists under `root`) and ChatML transcripts of SQL tool use
 * built from an evenly spaced sample of them (`maxTranscripts`, default 200), so chat markers,
 * JSON punctuation and SQL keywords get their own tokens.
 *
 * @example
 * const texts = tinyModelCorpus(packageRoot());
 */
export function tinyModelCorpus(root: string, options: { maxTranscripts?: number } = {}): string[] {
  const pairs: (readonly [string, string, string])[] = [...BUILT_IN_PAIRS];
  const bundled = join(root, 'data', 'bundled');
  // Only the train split: held-out questions stay unseen, even by the tokenizer.
  for (const split of ['train']) {
    const file = join(bundled, `${split}.json`);
    if (!existsSync(file)) continue;
    const records = JSON.parse(readFileSync(file, 'utf8')) as QuestionRecord[];
    for (const r of records) {
      if (typeof r.question === 'string' && typeof r.query === 'string') pairs.push([r.question, r.query, String(r.db_id ?? 'db')]);
    }
  }
  const template = new ChatTemplate(FALLBACK_CHAT_TEMPLATE);
  const texts: string[] = [];
  for (const [question, sql] of pairs) texts.push(question, sql);
  // Transcripts repeat the same scaffolding; an evenly spaced sample teaches it as well as all of them.
  const maxTranscripts = options.maxTranscripts ?? 200;
  const stride = Math.max(1, Math.ceil(pairs.length / maxTranscripts));
  for (let i = 0; i < pairs.length; i += stride) {
    const [question, sql, table] = pairs[i]!;
    const messages: ChatMessage[] = [
      { role: 'user', content: question },
      { role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: 'describe', arguments: { table_name: table } } }] },
      { role: 'tool', content: `Table ${table}: id INTEGER, name TEXT` },
      { role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: 'query', arguments: { sql } } }] },
      { role: 'tool', content: 'columns: result\nrows: 1' },
      { role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: 'answer', arguments: { value: '1' } } }] },
    ];
    texts.push(template.render(messages, { tools: TRANSCRIPT_TOOLS }));
  }
  return texts;
}
