/**
 * A short Markdown description of every bundled database for the data card: one line per
 * table with its columns, `?` marking nullable columns and `→ table` marking foreign keys.
 */
import type { DomainSpec } from './schema.js';

/**
 * The schema section of the data card.
 *
 * @example
 * ```ts
 * formatSchemaSummary(ALL_DOMAINS, ['museum_collection']);
 * // '**concerts** — Live music: …\n- `venue`(id, name, city, …)'
 * ```
 */
export function formatSchemaSummary(domains: readonly DomainSpec[], unseenDbIds: readonly string[], validationDbIds: readonly string[] = []): string {
  return domains.map((d) => {
    const heldOut = unseenDbIds.includes(d.id) ? ' *(held out: eval_unseen_db only)*'
      : validationDbIds.includes(d.id) ? ' *(held out: validation_unseen_db only)*' : '';
    const tables = d.tables.map((t) => {
      const cols = t.columns.map((c) => `${c.name}${c.nullable ? '?' : ''}${c.references ? ` → ${c.references}` : ''}`);
      return `- \`${t.name}\` (${t.rowCount} rows): ${cols.join(', ')}`;
    });
    return [`**${d.id}**${heldOut} — ${d.summary}`, '', ...tables].join('\n');
  }).join('\n\n');
}
