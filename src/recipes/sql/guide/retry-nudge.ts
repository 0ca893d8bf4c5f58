/**
 * The retry after a failed query, and its repair: SQLEnv's error says what went wrong and lists what exists (an
 * unknown column's error lists its table's columns), so the next turn queries again instead of answering with SQL that
 * already failed, and the rewrite keeps the failed query's text with a listed column in the unknown one's place
 * (a policy that never saw a retry in its demonstrations otherwise rewrites the whole query from memory).
 * A query that found nothing because it compared a value with the wrong column is retried the same way, where SQLEnv's
 * value hint names the column that holds the value (`port.city has 'Lisbon'`): that column takes the compared one's place;
 * where the hint links a value of the question to a column instead (`The question's 'Porto' is in port.city.`), the
 * linked comparison takes the place of the one that found nothing.
 */
import { asksForRewrite, type Conversation, type ConversationQuery } from './conversation.js';
import type { TokenNudge } from '../../../lm/compute/decoding-guide.js';
import { continuesText, prefixSet } from './word-groups.js';

/** Logit bias of the query call's opening after a failed query: in effect a constraint. */
export const RETRY_BIAS = 100;
/**
 * How many queries whose response asked for a rewrite a conversation may have for the guide still to ask for a retry:
 * after that, the policy chooses. Two leave the demo's fourth and last turn to the answer: a value hint's second rewrite
 * often lands where the first did not, while more retries would spend the turn the answer needs.
 */
export const RETRIES = 2;

/**
 * At the start of a turn after a query whose response asked for a rewrite (an error, or a value another column holds;
 * while the conversation has at most {@link RETRIES} of them), the opening of a query call as the policy wrote its
 * latest one (`<tool_call>\n{"name": "query", "arguments": {"sql": "`), token by token; undefined once the turn has
 * left or finished it.
 *
 * @example
 * ```ts
 * const opening = '<tool_call>\n{"name": "query", "arguments": {"sql": "';
 * const latestQuery = { sql: 'SELECT x FROM t', tables: ['t'], failed: true, opening, unknownColumn: 'x', misplacedValue: undefined, linkedRewrite: undefined };
 * retryNudge({ latestQuery, rewritesAsked: 1 }, '<tool_call>\n{"name": "')?.favours('query'); // true
 * ```
 */
export function retryNudge(conversation: Pick<Conversation, 'latestQuery' | 'rewritesAsked'>, generatedText: string): TokenNudge | undefined {
  const latest = conversation.latestQuery;
  const opening = latest?.opening;
  if (latest === undefined || !asksForRewrite(latest) || opening === undefined || conversation.rewritesAsked > RETRIES) return undefined;
  if (generatedText.length >= opening.length || !opening.startsWith(generatedText)) return undefined;
  const rest = opening.slice(generatedText.length);
  // A token may finish the opening and begin the SQL, not close an empty one.
  return { bias: RETRY_BIAS, favours: (t) => t.length > 0 && (rest.startsWith(t) || (t.startsWith(rest) && t[rest.length] !== '"')) };
}

/** Logit bias of the failed query's text in its rewrite, around the unknown column: strong enough that the rewrite keeps the failed query's text, short of a constraint so the model can still leave it. */
export const REPAIR_BIAS = 16;
/** Logit bias, in the unknown column's place, of the columns the error listed for the failed query's tables (gentle: the model picks which of them). */
export const REPAIR_SLOT_BIAS = 8;

/** Where `name` first occurs in `text` as a whole SQL name (any case), or -1. */
function nameIndex(text: string, name: string): number {
  return new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, 'i').exec(text)?.index ?? -1;
}

/** The run of SQL name characters `text` starts with. */
const leadingName = (text: string): string => /^[A-Za-z0-9_]*/.exec(text)![0];

/** The name a rewrite replaces in a query's SQL: where it stands, and the columns that may take its place (lower case; undefined: any name). */
export interface RepairSite {
  readonly at: number;
  readonly name: string;
  readonly columns: readonly string[] | undefined;
}

/**
 * What the rewrite of the conversation's latest query replaces: after an unknown-column error, that column, by the
 * columns the conversation shows for the query's tables (the error lists them); after a value another column holds, the
 * compared column, by the columns the hint named. Undefined where the response asked for neither.
 *
 * @example
 * ```ts
 * // The latest query `SELECT MAX(birth_date) FROM chef` failed; its feedback listed chef's columns id, start_date.
 * const latestQuery = { sql: 'SELECT MAX(birth_date) FROM chef', tables: ['chef'], failed: true, opening: undefined, unknownColumn: 'birth_date', misplacedValue: undefined, linkedRewrite: undefined };
 * repairSite({ latestQuery, columns: new Map([['chef', ['id', 'start_date']]]) }); // { at: 11, name: 'birth_date', columns: ['id', 'start_date'] }
 * ```
 */
export function repairSite(conversation: Pick<Conversation, 'latestQuery' | 'columns'>): RepairSite | undefined {
  const latest = conversation.latestQuery;
  if (latest?.misplacedValue) return { at: latest.misplacedValue.at, name: latest.misplacedValue.column, columns: latest.misplacedValue.holders };
  const column = latest?.failed ? latest.unknownColumn : undefined;
  const at = column === undefined ? -1 : nameIndex(latest!.sql, column);
  if (at < 0) return undefined;
  const { columns } = conversation;
  const shown = latest!.tables.length > 0 && latest!.tables.every((t) => columns.has(t));
  return { at, name: column!, columns: shown ? latest!.tables.flatMap((t) => columns.get(t)!) : undefined };
}

/**
 * The rewrite of a query whose response asked for one, as nudges for its SQL (`sql`: written so far, JSON-escaped as
 * the failed one is): the failed query's text, and in the place of `site`'s name one of its columns. Most failed queries
 * had the right shape and one wrong name: this is the repair the error or the hint asks for. Undefined once the rewrite
 * has left that text.
 *
 * @example
 * ```ts
 * const failed = "SELECT COUNT(*) FROM festival WHERE birth_date < '2021'";
 * const repair = repairNudges(failed, { at: 36, name: 'birth_date', columns: ['id', 'start_date'] });
 * repair('SELECT COUNT(*) FROM fest')?.favours('ival'); // true
 * repair('SELECT COUNT(*) FROM festival WHERE ')?.favours('start'); // true, and 'sign' false
 * repair('SELECT COUNT(*) FROM festival WHERE start_date')?.favours(' <'); // true
 * ```
 */
export function repairNudges(failedSql: string, site: RepairSite | undefined): (sql: string) => TokenNudge | undefined {
  if (site === undefined) return () => undefined;
  const before = failedSql.slice(0, site.at);
  const after = `${failedSql.slice(site.at + site.name.length)}"`;
  const { columns } = site;
  const whole = columns && new Set(columns);
  const prefixes = columns && prefixSet(columns);
  /** Whether token text `t`, written after `stem` in the column's place, names a listed column and then goes on with the text after it. */
  const inPlace = (stem: string, t: string): boolean => {
    const name = stem + leadingName(t).toLowerCase();
    const beyond = t.slice(name.length - stem.length);
    if (beyond === '') return name !== '' && (prefixes?.has(name) ?? true);
    return name !== '' && (whole?.has(name) ?? true) && continuesText(after, beyond);
  };
  return (sql) => {
    if (before.startsWith(sql)) {
      const rest = before.slice(sql.length);
      return rest === ''
        ? { bias: REPAIR_SLOT_BIAS, favours: (t) => inPlace('', t) }
        : { bias: REPAIR_BIAS, favours: (t) => t.length > 0 && (rest.startsWith(t) || (t.startsWith(rest) && inPlace('', t.slice(rest.length)))) };
    }
    if (!sql.startsWith(before)) return undefined;
    const replaced = sql.slice(before.length);
    const name = leadingName(replaced);
    const written = replaced.slice(name.length);
    if (name === '') return undefined;
    if (written === '') return { bias: REPAIR_SLOT_BIAS, favours: (t) => t.length > 0 && inPlace(name.toLowerCase(), t) };
    if (!after.startsWith(written) || after === written) return undefined;
    const rest = after.slice(written.length);
    return { bias: REPAIR_BIAS, favours: (t) => t.length > 0 && continuesText(rest, t) };
  };
}

/**
 * The rewrite a value hint linked: the query with the question's value and its column in place of the comparison that
 * found nothing (`linked`, JSON-escaped as the query's SQL is), as nudges for the rewrite's SQL so far (`sql`); undefined
 * once the rewrite has left it or written it all.
 *
 * @example
 * ```ts
 * const repair = linkedRewriteNudges("SELECT COUNT(*) FROM port WHERE city = 'Porto'");
 * repair('SELECT COUNT(*) FROM port WHERE ')?.favours('city'); // true, and 'name' false
 * ```
 */
export function linkedRewriteNudges(linked: string): (sql: string) => TokenNudge | undefined {
  // The SQL string's closing quote is part of the rewrite: it ends where the linked query ends.
  const whole = `${linked}"`;
  return (sql) => (whole.startsWith(sql) ? { bias: REPAIR_BIAS, favours: (t) => t.length > 0 && continuesText(whole.slice(sql.length), t) } : undefined);
}
