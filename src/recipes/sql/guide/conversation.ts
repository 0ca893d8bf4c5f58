/**
 * What a SQLEnv episode has shown the policy, read once per turn from the episode as data (its observations, its
 * infos' feedback, the policy's turns): the facts the decoding guide's nudges look up at every token of a turn.
 */

import { isWordChar } from '../../../../envs/sql/episode/word-char.js';
import type { SqlFeedback, ValueNotFoundFeedback } from '../../../../envs/sql/feedback/sql-feedback.js';
import type { SqlObservation } from '../../../../envs/sql/observation/sql-observation.js';
import { quoteString } from '../../../../envs/sql/sandbox/sql-quoting.js';
import type { Info } from '../../../gym/env.js';
import type { GuideContext } from '../../../train/rollout/guide-context.js';

/** A query of the conversation: its SQL as written in the tool call (JSON-escaped), and whether it failed. */
export interface ConversationQuery {
  readonly sql: string;
  /** The tables its SQL names after FROM or JOIN (lower case; {@link tablesNamed}). */
  readonly tables: readonly string[];
  readonly failed: boolean;
  /** The call's text from its `<tool_call>` tag up to the SQL's opening quote, as the policy wrote it; undefined without the tag. */
  readonly opening: string | undefined;
  /** The column an unknown-column error named (`no such column: t.x` → `x`), if the query failed so. */
  readonly unknownColumn: string | undefined;
  /** Where the query found nothing and SQLEnv's value hint said which other columns hold a value it compared: that comparison. */
  readonly misplacedValue: MisplacedValue | undefined;
  /**
   * Where the query found nothing and the value hint linked a value of the question to a column (`The question's 'Lisbon'
   * is in port.city.`): the query with that comparison in place of the one that found nothing (JSON-escaped, as `sql`).
   */
  readonly linkedRewrite: string | undefined;
}

/** A comparison whose value is in no row of its column but in another column (`name = 'Lisbon'`, and `port.city has 'Lisbon'`). */
export interface MisplacedValue {
  /** The compared column as the query wrote it (`name`). */
  readonly column: string;
  /** Where that name stands in the query's SQL (JSON-escaped, as `sql` is). */
  readonly at: number;
  /** The columns the hint says hold the value, without their tables, lower case (`city`). */
  readonly holders: readonly string[];
}

/** Whether the response to `query` asks for a rewrite: an error, or a hint that another column holds a compared value. */
export const asksForRewrite = (query: ConversationQuery): boolean => query.failed || query.misplacedValue !== undefined || query.linkedRewrite !== undefined;

/** What the policy has been shown. */
export interface Conversation {
  /** The prompt from the first observation on: the system prompt before it is not copied from. */
  readonly text: string;
  /** The question, lower case ('' where the prompt has none). */
  readonly question: string;
  /** The question as written. */
  readonly questionText: string;
  /** The tables of the last `Tables: ` line, as listed; undefined where there is none. */
  readonly tables: readonly string[] | undefined;
  /** Each table's columns as shown, both lower case (see {@link readConversation}). */
  readonly columns: ReadonlyMap<string, readonly string[]>;
  readonly latestQuery: ConversationQuery | undefined;
  /** How many of the conversation's queries had a response that asked for a rewrite ({@link asksForRewrite}). */
  readonly rewritesAsked: number;
}

/** Letters and digits of any script: what a word of the conversation is made of. */
export { isWordChar };

/** The episode so far, as the rollout hands it to SQLEnv's guide. */
export type SqlGuideContext = Pick<GuideContext<SqlObservation>, 'observations' | 'infos' | 'turns' | 'transcript'>;

/** A step's feedback (`info.feedback`), or none for an info without it. */
function feedbackOf(info: Info | undefined): readonly SqlFeedback[] {
  const feedback = info?.['feedback'];
  return Array.isArray(feedback) ? (feedback as SqlFeedback[]) : [];
}

/** A described table's block in a `describe` result: `TABLE port (3 rows)` and its indented column lines. */
const DESCRIBED_TABLE = /^TABLE (\S+) \(.*\n((?: {2}\S.*(?:\n|$))+)/gm;

/**
 * Each table's columns as the episode has shown them (lower case): the observation's listed columns (`listColumns`),
 * described tables, and the candidates of unknown-column feedback, in that order, later ones replacing earlier ones. A
 * list cut short (`more` columns not listed) is not one.
 */
function shownColumns(context: SqlGuideContext): Map<string, string[]> {
  const columns = new Map<string, string[]>();
  const lower = (names: readonly string[]) => names.map((n) => n.trim().toLowerCase());
  const first = context.observations[0];
  first?.tables.forEach((t, i) => {
    const listed = first.columns[i];
    if (listed !== undefined) columns.set(t.trim().toLowerCase(), lower(listed.split(',')));
  });
  context.infos.forEach((info, i) => {
    if (info['tool'] !== 'describe' || info['error_type'] !== null) return;
    // A description is shown as text only (SQLEnv reports no description data): its rendering's column lines.
    for (const m of context.observations[i]?.result.matchAll(DESCRIBED_TABLE) ?? []) {
      const names = m[2]!.split('\n').filter((l) => l.startsWith('  ') && !l.startsWith('  FOREIGN KEY ')).map((l) => l.trim().split(' ')[0]!);
      columns.set(m[1]!.toLowerCase(), lower(names));
    }
  });
  for (const info of context.infos) {
    for (const f of feedbackOf(info)) {
      if (f.kind !== 'unknown_column') continue;
      for (const t of f.candidates) if (t.more === 0) columns.set(t.table.toLowerCase(), lower(t.columns));
    }
  }
  return columns;
}

/** The unqualified name of a column SQLite reported (`T1.nam` → `nam`), where it is a plain name. */
const unqualified = (column: string): string | undefined => /^(?:[A-Za-z0-9_]+\.)?([A-Za-z0-9_]+)/.exec(column)?.[1];

/**
 * The `"sql"` tool arguments the policy wrote, in order. Each is judged by what the environment reported after it, up
 * to the policy's next query: whether a step failed (`info.error_type`), the column an unknown-column error named, and
 * the value hints of a query that found nothing.
 */
function queries(context: SqlGuideContext): ConversationQuery[] {
  const calls = context.turns.flatMap((turn, t) => [...turn.matchAll(/"sql"\s*:\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => ({ turn: t, text: turn, m })));
  return calls.map(({ turn, text, m }, i) => {
    const next = calls[i + 1];
    // The steps whose responses came after this call and before the next one: none for a call with another after it in its turn.
    const responses = next?.turn === turn ? [] : context.infos.slice(turn + 1, next === undefined ? undefined : next.turn + 1);
    const callStart = text.lastIndexOf('<tool_call>', m.index);
    const sqlStart = m.index + m[0].length - m[1]!.length - 1;
    // A tag before an earlier call's end is not this call's (a call written without one).
    const opening = callStart < 0 ? undefined : text.slice(callStart, sqlStart);
    const feedback = responses.flatMap(feedbackOf);
    const column = feedback.find((f) => f.kind === 'unknown_column');
    const unknownColumn = column === undefined ? undefined : unqualified(column.column);
    const failed = responses.some((info) => typeof info['error_type'] === 'string');
    const notFound = feedback.filter((f) => f.kind === 'value_not_found');
    const misplacedValue = failed ? undefined : misplacedValueOf(m[1]!, notFound);
    const linkedRewrite = failed || misplacedValue ? undefined : linkedRewriteOf(m[1]!, notFound);
    return { sql: m[1]!, tables: tablesNamed(m[1]!), failed, opening: opening?.includes('</tool_call>') ? undefined : opening, unknownColumn, misplacedValue, linkedRewrite };
  });
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `column` (as the hint writes it) is compared with `quoted` (a quoted literal) in `sql`, and the comparison's text. */
function comparisonIn(sql: string, column: string, quoted: string): RegExpExecArray | null {
  return new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(column)}\\s*(?:==?|LIKE)\\s*${escapeRegExp(quoted)}`, 'i').exec(sql);
}

/**
 * The query `sql` with the comparison that found nothing replaced by the one the first value hint that links a value
 * of the question to a column names: `name = 'Sals'`, and the question's 'Porto' in `port.city`, give `city = 'Porto'`.
 */
function linkedRewriteOf(sql: string, notFound: readonly ValueNotFoundFeedback[]): string | undefined {
  const hint = notFound.find((f) => f.questionValues.length > 0);
  const linked = hint?.questionValues[0];
  const holder = linked === undefined ? undefined : /^[A-Za-z0-9_]+\.([A-Za-z0-9_]+)$/.exec(linked.column)?.[1];
  if (hint === undefined || linked === undefined || holder === undefined) return undefined;
  const comparison = comparisonIn(sql, hint.column, quoteString(hint.value));
  return comparison ? `${sql.slice(0, comparison.index)}${holder} = ${quoteString(linked.value)}${sql.slice(comparison.index + comparison[0].length)}` : undefined;
}

/**
 * The comparison of `sql` that the first value hint naming other columns that hold its value says another column could
 * answer (`name = 'Lisbon'`, and `port.city` has 'Lisbon'), found in the SQL as written.
 */
function misplacedValueOf(sql: string, notFound: readonly ValueNotFoundFeedback[]): MisplacedValue | undefined {
  const hint = notFound.find((f) => f.heldBy.length > 0);
  if (hint === undefined) return undefined;
  const comparison = comparisonIn(sql, hint.column, quoteString(hint.value));
  if (!comparison) return undefined;
  const holders = hint.heldBy.map((h) => h.column.slice(h.column.lastIndexOf('.') + 1).toLowerCase());
  return { column: hint.column, at: comparison.index, holders };
}

/**
 * The tables `sql` names after FROM or JOIN so far (lower case).
 *
 * @example
 * ```ts
 * tablesNamed('SELECT T1.name FROM port AS T1 JOIN Chef'); // ['port', 'chef']
 * ```
 */
export function tablesNamed(sql: string): string[] {
  return [...sql.matchAll(/\b(?:FROM|JOIN)\s+([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])/gi)].map((m) => m[1]!.toLowerCase());
}

/**
 * Reads what an episode has shown the policy, once per turn.
 *
 * @example
 * ```ts
 * const c = readConversation({ observations: [obs], infos: [info], turns: [], transcript: [renderObservation(obs)] });
 * c.tables; // obs.tables, e.g. ['port', 'chef']
 * ```
 */
export function readConversation(context: SqlGuideContext): Conversation {
  const first = context.observations[0];
  const questionText = first?.question ?? '';
  const queried = queries(context);
  return {
    text: context.transcript.join('\n'),
    question: questionText.toLowerCase(),
    questionText,
    tables: first?.tables.map((t) => t.trim()).filter((t) => t.length > 0),
    columns: shownColumns(context),
    latestQuery: queried.at(-1),
    rewritesAsked: queried.filter(asksForRewrite).length,
  };
}

/**
 * Whether `question` (lower case) names `name` as a word: itself, its plural, or with spaces for underscores
 * (`ticket_sale`: "ticket sales").
 *
 * @example
 * ```ts
 * mentions('how many readings are there?', 'reading'); // true
 * mentions('list the categories.', 'category'); // true
 * ```
 */
export function mentions(question: string, name: string): boolean {
  const words = name.toLowerCase().replace(/_/g, ' ');
  const forms = [words, `${words}s`, `${words}es`, ...(words.endsWith('y') ? [`${words.slice(0, -1)}ies`] : [])];
  return forms.some((form) => {
    for (let i = question.indexOf(form); i >= 0; i = question.indexOf(form, i + 1)) {
      if (!isWordChar(question[i - 1]) && !isWordChar(question[i + form.length])) return true;
    }
    return false;
  });
}
