/**
 * The run's metrics file: one JSON object per line, appended as training goes, truncated back
 * to a checkpoint's step on resume so a resumed run continues the same file without duplicates.
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MetricRecordKind } from './metric-fields.js';

/** One line of metrics.jsonl. Field names are documented in `metric-fields.ts`. */
export interface MetricRecord {
  kind: MetricRecordKind;
  step: number;
  time: number;
  [field: string]: unknown;
}

/**
 * Parses metrics.jsonl text, skipping a torn last line (a crash mid-append).
 *
 * @example
 * ```ts
 * parseMetrics('{"kind":"train","step":1,"time":0.5}\n{"kind":"tr'); // one record
 * ```
 */
export function parseMetrics(text: string): MetricRecord[] {
  const out: MetricRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as MetricRecord);
    } catch {
      // A torn line can only be the last one written before a crash; ignore it.
    }
  }
  return out;
}

/**
 * Appends records to `<runDir>/metrics.jsonl`.
 *
 * @example
 * ```ts
 * const log = new MetricsLog('runs/demo/metrics.jsonl');
 * await log.append({ kind: 'train', step: 1, time: 2.5, reward: 0.3 });
 * ```
 */
export class MetricsLog {
  constructor(readonly path: string) {}

  /** Appends one record as a line. */
  async append(record: MetricRecord): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await appendFile(this.path, JSON.stringify(record, replaceNonFinite) + '\n');
  }

  /** All records written so far (empty for a new run). */
  async readAll(): Promise<MetricRecord[]> {
    try {
      return parseMetrics(await readFile(this.path, 'utf8'));
    } catch {
      return [];
    }
  }

  /** Number of complete records in the file. */
  async count(): Promise<number> {
    return (await this.readAll()).length;
  }

  /**
   * Keeps only the first `count` records — what a resumed run rolls back to (the count is
   * stored in each checkpoint) — and rewrites the file, dropping a torn last line too.
   */
  async truncateTo(count: number): Promise<void> {
    const kept = (await this.readAll()).slice(0, count);
    await mkdir(dirname(this.path), { recursive: true });
    await writeFile(this.path, kept.map((r) => JSON.stringify(r, replaceNonFinite)).join('\n') + (kept.length ? '\n' : ''));
  }
}

/** JSON has no NaN/Infinity: write them as null so every line stays parseable. */
function replaceNonFinite(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}
