/** One check of `sqlenv validate` on one split. */
export interface CheckResult {
  split: string;
  check: string;
  /** `flag`: worth a look, not a failure (e.g. an empty gold result). */
  status: 'pass' | 'fail' | 'flag';
  /** Episodes played (or questions examined) for the check. */
  episodes: number;
  detail: string;
  /** Question ids and what went wrong, for `fail` and `flag`. */
  failures: string[];
}

/** Distribution of one split. */
export interface SplitStats {
  split: string;
  questions: number;
  skipped: number;
  databases: number;
  /** Questions per difficulty (`unknown` when the file gives none). */
  difficulty: Record<string, number>;
  /** Share of questions whose gold result is empty. */
  emptyGoldRate: number;
  /** Questions repeating an earlier one of the split (same database, same text up to case and spacing). */
  duplicateQuestions: number;
  /** Questions also found, word for word about the same database, in another split (by split). */
  sharedWith?: Record<string, number>;
}

/** Everything `sqlenv validate` found. */
export interface ValidationReport {
  checks: CheckResult[];
  stats: SplitStats[];
}

/**
 * Whether the report has a failure (flags do not count).
 *
 * @example
 * ```ts
 * process.exitCode = validationFailed(report) ? 1 : 0;
 * ```
 */
export function validationFailed(report: ValidationReport): boolean {
  return report.checks.some((c) => c.status === 'fail');
}

/**
 * The report as text: a table of checks, the first failures of each failing check, and a table
 * of split statistics.
 *
 * @example
 * ```ts
 * console.log(renderValidationReport(report));
 * ```
 */
export function renderValidationReport(report: ValidationReport, maxListed = 5): string {
  const rows = report.checks.map((c) => [c.split, c.check, c.status === 'pass' ? 'PASS' : c.status === 'fail' ? 'FAIL' : 'FLAG', String(c.episodes), c.detail]);
  const lines = [table(['split', 'check', 'status', 'episodes', 'detail'], rows)];
  for (const c of report.checks.filter((x) => x.status !== 'pass' && x.failures.length > 0)) {
    lines.push('', `${c.status === 'fail' ? 'FAIL' : 'FLAG'} ${c.split} / ${c.check}:`);
    for (const f of c.failures.slice(0, maxListed)) lines.push(`  - ${f}`);
    if (c.failures.length > maxListed) lines.push(`  … and ${c.failures.length - maxListed} more`);
  }
  const statRows = report.stats.map((s) => [
    s.split,
    String(s.questions),
    String(s.skipped),
    String(s.databases),
    Object.entries(s.difficulty)
      .map(([d, n]) => `${d} ${((100 * n) / Math.max(1, s.questions)).toFixed(0)}%`)
      .join(', '),
    `${(100 * s.emptyGoldRate).toFixed(1)}%`,
    String(s.duplicateQuestions),
    Object.entries(s.sharedWith ?? {})
      .map(([other, n]) => `${other} ${n}`)
      .join(', ') || '—',
  ]);
  lines.push('', table(['split', 'questions', 'skipped', 'databases', 'difficulty', 'empty gold', 'duplicates', 'shared with'], statRows));
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  const flagged = report.checks.filter((c) => c.status === 'flag').length;
  lines.push('', failed ? `${failed} check(s) FAILED${flagged ? `, ${flagged} flagged` : ''}` : `all ${report.checks.length} checks passed${flagged ? ` (${flagged} flagged)` : ''}`);
  return lines.join('\n');
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
