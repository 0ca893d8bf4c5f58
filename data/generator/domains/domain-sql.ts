/**
 * SQL fragments the domain-specific templates share.
 */

/**
 * `a AS T1 JOIN b AS T2 ON T1.aToB = T2.id JOIN c AS T3 ON T2.bToC = T3.id` (integer `id` keys).
 *
 * @example
 * ```ts
 * joinOn3('ticket_sale', 'concert_id', 'concert', 'artist_id', 'artist');
 * ```
 */
export function joinOn3(a: string, aToB: string, b: string, bToC: string, c: string): string {
  return `${a} AS T1 JOIN ${b} AS T2 ON T1.${aToB} = T2.id JOIN ${c} AS T3 ON T2.${bToC} = T3.id`;
}
