import type { SqlObservation } from './sql-observation.js';

/**
 * The observation as text for a language model: the question, the tables (and their columns, when
 * listed), what has been described, the last result or error, and the budget. Empty sections are left out.
 *
 * @example
 * ```ts
 * const [obs] = await env.reset({ seed: 0 });
 * messages.push({ role: 'user', content: renderObservation(obs) });
 * ```
 */
export function renderObservation(obs: SqlObservation): string {
  const parts = [`Question: ${obs.question}`];
  if (obs.evidence) parts.push(`Evidence: ${obs.evidence}`);
  parts.push(`Database: ${obs.dbId}`, `Tables: ${obs.tables.join(', ')}`);
  if (obs.columns.length > 0) parts.push(`Columns: ${obs.tables.map((t, i) => `${t}(${obs.columns[i] ?? ''})`).join('; ')}`);
  if (obs.schema) parts.push(`Schema (described so far):\n${obs.schema}`);
  if (obs.history.length > 0) parts.push(`History:\n${obs.history.join('\n')}`);
  if (obs.error) parts.push(`Error: ${obs.error}`);
  else if (obs.result) parts.push(`Result:\n${obs.result}`);
  parts.push(`Step ${obs.step}; ${obs.budgetRemaining} step${obs.budgetRemaining === 1 ? '' : 's'} left.`);
  return parts.join('\n\n');
}
