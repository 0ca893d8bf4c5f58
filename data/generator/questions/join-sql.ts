/**
 * SQL fragments for joining along foreign keys, in Spider's alias style (T1, T2, T3).
 */
import type { Relation, RelationPath } from './db-view.js';

/**
 * `child AS T1 JOIN parent AS T2 ON T1.fk = T2.pk`.
 *
 * @example
 * ```ts
 * joinOn(rel); // 'appointment AS T1 JOIN doctor AS T2 ON T1.doctor_id = T2.id'
 * ```
 */
export function joinOn(rel: Relation): string {
  return `${rel.child.name} AS T1 JOIN ${rel.parent.name} AS T2 ON T1.${rel.column.name} = T2.${rel.parent.key.name}`;
}

/**
 * `a AS T1 JOIN b AS T2 ON … JOIN c AS T3 ON …` along a two-step path.
 *
 * @example
 * ```ts
 * joinPath(path); // 'ticket AS T1 JOIN concert AS T2 ON … JOIN venue AS T3 ON …'
 * ```
 */
export function joinPath(path: RelationPath): string {
  const { first, second } = path;
  return `${first.child.name} AS T1 JOIN ${first.parent.name} AS T2 ON T1.${first.column.name} = T2.${first.parent.key.name}` +
    ` JOIN ${second.parent.name} AS T3 ON T2.${second.column.name} = T3.${second.parent.key.name}`;
}
