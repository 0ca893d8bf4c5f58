/**
 * A small benchmark harness: each `*.bench.ts` file in this folder default-exports a function
 * returning a {@link BenchSection}; `npm run bench` runs them all and rewrites BENCHMARKS.md.
 */
export interface BenchSection {
  /** Heading of the section in BENCHMARKS.md. */
  title: string;
  /** Markdown body: what was measured, the reference beside it, a table of numbers. */
  markdown: string;
}

/** Time `fn` repeatedly: warm-up, then samples until `minMs` has passed; returns per-call stats in ms. */
export async function timeIt(
  fn: () => unknown | Promise<unknown>,
  opts: { warmup?: number; minMs?: number; minIters?: number } = {},
): Promise<{ mean: number; p50: number; p99: number; iters: number }> {
  const warmup = opts.warmup ?? 5;
  const minMs = opts.minMs ?? 1000;
  const minIters = opts.minIters ?? 10;
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  const start = performance.now();
  while (samples.length < minIters || performance.now() - start < minMs) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
  return { mean, p50: q(0.5), p99: q(0.99), iters: samples.length };
}

/** A markdown table from a header row and body rows. */
export function mdTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
