/**
 * Which questions of a set of generated databases a training corpus keeps: a few easy ones a
 * database, spread over its templates and interleaved across databases.
 */

/** A question record of a Spider-layout question file (the fields the corpus reads). */
export interface CorpusQuestion {
  readonly db_id: string;
  readonly difficulty?: string;
  readonly [field: string]: unknown;
}

/**
 * The corpus: of each database's easy questions (in file order, template by template), every k-th
 * so that `perDb` of them spread over its templates, then round-robin over the databases (one of
 * each database before a second of any), so every prefix of the corpus covers them all.
 *
 * @example
 * ```ts
 * corpusQuestions(questions, 8).length; // 8 × the number of databases (fewer where a database has fewer)
 * ```
 */
export function corpusQuestions(questions: readonly CorpusQuestion[], perDb: number): CorpusQuestion[] {
  const byDb = new Map<string, CorpusQuestion[]>();
  for (const q of questions) {
    if (q.difficulty !== 'easy') continue;
    const list = byDb.get(q.db_id) ?? [];
    list.push(q);
    byDb.set(q.db_id, list);
  }
  const picked = [...byDb.values()].map((all) => {
    const every = Math.max(1, Math.floor(all.length / perDb));
    return all.filter((_, i) => i % every === 0).slice(0, perDb);
  });
  const out: CorpusQuestion[] = [];
  for (let i = 0; i < perDb; i++) for (const list of picked) if (list[i]) out.push(list[i]!);
  return out;
}
