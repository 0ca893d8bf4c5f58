/**
 * What a SQLEnv conversation has shown the policy, read once per prompt: the facts the decoding guide's
 * nudges look up at every token of a turn.
 */

import { isWordChar } from '../../../../envs/sql/episode/word-char.js';

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

/**
 * The text of the last line that starts with `label` (`Tables: `), up to a chat template's special token if one follows
 * on the line: `<|im_end|>`, `<|eot_id|>`, `<end_of_turn>`, `</s>`, `[/INST]` — a name the observation lists has
 * neither `<` nor `[`.
 */
function lastLine(text: string, label: string): string | undefined {
  const line = [...text.matchAll(new RegExp(`^${label}(.*)$`, 'gm'))].at(-1)?.[1];
  return line?.split(/[<[]/)[0];
}

/**
 * Each table's columns as the conversation shows them (lower case): the `Columns:` line, described tables, and the
 * lists in unknown-column errors (`Columns of chef: id, name; of port: …`). A list cut short (`and 3 more`) is not one.
 */
function shownColumns(text: string): Map<string, string[]> {
  const columns = new Map<string, string[]>();
  const lower = (names: readonly string[]) => names.map((n) => n.trim().toLowerCase());
  for (const m of lastLine(text, 'Columns: ')?.matchAll(/([^;()]+)\(([^)]*)\)/g) ?? []) columns.set(m[1]!.trim().toLowerCase(), lower(m[2]!.split(',')));
  for (const m of text.matchAll(/^TABLE (\S+) \(.*\n((?: {2}\S.*(?:\n|$))+)/gm)) {
    const names = m[2]!.split('\n').filter((l) => l.startsWith('  ') && !l.startsWith('  FOREIGN KEY ')).map((l) => l.trim().split(' ')[0]!);
    columns.set(m[1]!.toLowerCase(), lower(names));
  }
  for (const m of text.matchAll(/Columns of (.*)$/gm)) {
    for (const part of m[1]!.split('; ')) {
      const table = /^(?:of )?([A-Za-z0-9_]+): (.*)$/.exec(part);
      if (table && !/ and [0-9]+ more$/.test(table[2]!)) columns.set(table[1]!.toLowerCase(), lower(table[2]!.split(', ')));
    }
  }
  return columns;
}

/** The conversation's `"sql"` tool arguments, in order: each with whether its response (the text up to the next one) has an `Error: ` line. */
function queries(text: string): ConversationQuery[] {
  const calls = [...text.matchAll(/"sql"\s*:\s*"((?:[^"\\]|\\.)*)"/g)];
  return calls.map((m, i) => {
    const callStart = text.lastIndexOf('<tool_call>', m.index);
    const sqlStart = m.index + m[0].length - m[1]!.length - 1;
    const response = text.slice(m.index + m[0].length, calls[i + 1]?.index);
    // A tag before an earlier call's end is not this call's (a call written without one).
    const opening = callStart < 0 ? undefined : text.slice(callStart, sqlStart);
    const unknownColumn = /^Error: no such column: (?:[A-Za-z0-9_]+\.)?([A-Za-z0-9_]+)/m.exec(response)?.[1];
    const failed = /^Error: /m.test(response);
    const misplacedValue = failed ? undefined : misplacedValueOf(m[1]!, response);
    const linkedRewrite = failed || misplacedValue ? undefined : linkedRewriteOf(m[1]!, response);
    return { sql: m[1]!, tables: tablesNamed(m[1]!), failed, opening: opening?.includes('</tool_call>') ? undefined : opening, unknownColumn, misplacedValue, linkedRewrite };
  });
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `column` (as the hint writes it) is compared with `quoted` (a quoted literal) in `sql`, and the comparison's text. */
function comparisonIn(sql: string, column: string, quoted: string): RegExpExecArray | null {
  return new RegExp(`(?<![A-Za-z0-9_])${column}\\s*(?:==?|LIKE)\\s*${escapeRegExp(quoted)}`, 'i').exec(sql);
}

/**
 * The query `sql` with the comparison that found nothing replaced by the one a value hint in `response` links the
 * question's value to: `name = 'Sals'` and `The question's 'Porto' is in port.city.` give `city = 'Porto'`.
 */
function linkedRewriteOf(sql: string, response: string): string | undefined {
  const hint = /^No row has ([A-Za-z0-9_]+) = ('(?:[^']|'')*')\. Closest values of .*? The question's ('(?:[^']|'')*') is in [A-Za-z0-9_]+\.([A-Za-z0-9_]+)\./m.exec(response);
  if (!hint) return undefined;
  const [, column, value, linked, holder] = hint as unknown as [string, string, string, string, string];
  const comparison = comparisonIn(sql, column, value);
  return comparison ? `${sql.slice(0, comparison.index)}${holder} = ${linked}${sql.slice(comparison.index + comparison[0].length)}` : undefined;
}

/**
 * The comparison of `sql` that a value hint in `response` says another column could answer: `No row has name = 'Lisbon'.
 * Closest values of port.name: … port.city has 'Lisbon'.` (SQLEnv's `valueHint`), found in the SQL as written.
 */
function misplacedValueOf(sql: string, response: string): MisplacedValue | undefined {
  const hint = /^No row has ([A-Za-z0-9_]+) = ('(?:[^']|'')*')\. Closest values of .*? ([A-Za-z0-9_.]+(?: and [A-Za-z0-9_.]+)*) ha(?:s|ve) '(?:[^']|'')*'\.$/m.exec(response);
  if (!hint) return undefined;
  const [, column, value, holding] = hint as unknown as [string, string, string, string];
  const comparison = comparisonIn(sql, column, value);
  if (!comparison) return undefined;
  const holders = holding.split(' and ').map((h) => h.slice(h.lastIndexOf('.') + 1).toLowerCase());
  return { column, at: comparison.index, holders };
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
 * Reads a SQLEnv prompt (system prompt, observations, earlier turns) once.
 *
 * @example
 * ```ts
 * const c = readConversation('Question: How many ports?\n\nTables: port, chef');
 * c.tables; // ['port', 'chef']
 * c.question; // 'how many ports?'
 * ```
 */
export function readConversation(promptText: string): Conversation {
  // The first observation starts a line with its question (renderObservation); the system prompt before it is not copied from.
  const start = /^Question: /m.exec(promptText)?.index;
  const text = start === undefined ? promptText : promptText.slice(start);
  const questionText = /^Question: (.*)$/m.exec(text)?.[1] ?? '';
  const queried = queries(text);
  return {
    text,
    question: questionText.toLowerCase(),
    questionText,
    tables: lastLine(text, 'Tables: ')?.split(',').map((t) => t.trim()).filter((t) => t.length > 0),
    columns: shownColumns(text),
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
