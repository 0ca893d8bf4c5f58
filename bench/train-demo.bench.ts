/**
 * The bundled example over three seeds: held-out success of the untrained model, after SFT and
 * after GRPO, mean and spread, with the wall time per run. Slow (three full demo runs); run it
 * alone: `npm run bench -- train-demo`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDemo, type DemoResult } from '../examples/grpo-sql/demo.js';
import { mdTable, type BenchSection } from './harness.js';

const SEEDS = [0, 1, 2];

function stats(values: number[]): string {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1));
  return `${(mean * 100).toFixed(1)}% ± ${(sd * 100).toFixed(1)}`;
}

function meanReturn(values: number[]): string {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1));
  return `${mean.toFixed(3)} ± ${sd.toFixed(3)}`;
}

export default async function bench(): Promise<BenchSection> {
  const root = await mkdtemp(join(tmpdir(), 'sqlenv-demo-bench-'));
  const results: DemoResult[] = [];
  try {
    for (const seed of SEEDS) {
      const r = await runDemo(['--seed', String(seed), '--run-dir', join(root, `seed-${seed}`)]);
      if (r) results.push(r);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const splits = results[0]?.config.env.evalSplits ?? [];
  const rows: (string | number)[][] = [];
  for (const [label, name] of [['untrained', 'tiny model, untrained'], ['sft', '+ SFT'], ['final', '+ SFT + GRPO']] as const) {
    rows.push([
      name,
      ...splits.map((s) => stats(results.map((r) => r.summary.evaluations[label]?.[s]?.success ?? 0))),
      ...splits.map((s) => meanReturn(results.map((r) => r.summary.evaluations[label]?.[s]?.meanReturn ?? 0))),
    ]);
  }
  const oracle = results[0]?.rows.find((r) => r.policy.startsWith('oracle'));
  if (oracle) {
    rows.push(['oracle (upper bound)', ...splits.map((s) => `${((oracle.bySplit[s]?.success ?? 0) * 100).toFixed(1)}%`), ...splits.map((s) => (oracle.bySplit[s]?.meanReturn ?? 0).toFixed(3))]);
  }
  const formatAfter = results.map((r) => r.summary.formatCheck.after?.share ?? 0);
  const walls = results.map((r) => r.summary.wallSeconds / 60);
  return {
    title: 'Bundled GRPO example (npm run demo), 3 seeds',
    markdown: [
      `Default configuration (examples/grpo-sql/config.json), seeds ${SEEDS.join(', ')}; greedy held-out success and mean episode return on the first ${results[0]?.config.eval.episodes ?? '?'} questions of each split, mean ± sample std over seeds.`,
      '',
      mdTable(['policy', ...splits.map((s) => `${s} success`), ...splits.map((s) => `${s} mean return`)], rows),
      '',
      `Post-SFT tool-call format check (share of calls with exactly the schema's arguments): ${stats(formatAfter)}. ` +
        `Training wall time per run: ${walls.map((w) => `${w.toFixed(1)} min`).join(', ')}.`,
    ].join('\n'),
  };
}
