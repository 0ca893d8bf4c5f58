/**
 * README.md's figures come from BENCHMARKS.md: the generated block and every inline figure are
 * what bench/readme-figures.ts writes (`npm run readme:figures`), so no two sections disagree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoBlock, expectedReadme, parseComputeFigures, parseDemoFigures, renderReadmeFigures, ReadmeFiguresError } from '../../bench/readme-figures.js';

const root = join(import.meta.dirname, '..', '..');
const benchmarks = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8');

const SECTION = `<!-- bench:train-demo -->
## Bundled GRPO example (npm run demo) over seeds

_Measured 2026-12-01 on linux x64 by \`npm run bench -- train-demo\` (2571 s) at 3cce0c5; notes._

Default configuration, seeds 0, 1 (TRAIN_DEMO_SEEDS=0,1); greedy held-out success on the same 119 questions of each split.

| policy | eval greedy | eval_unseen_db greedy | eval pass@4 |
| --- | --- | --- | --- |
| + SFT | 95.0% ± 1.7 | 16.8% ± 3.7 | 98.3% ± 2.9 |
| + SFT + GRPO | 95.0% ± 1.5 | 18.5% ± 3.0 | 100.0% ± 0.0 |

Held-out success change from SFT to SFT + GRPO, in points: seed 0: eval +0.8 (2 gained, 1 lost, p = 1.0), eval_unseen_db +2.5 (3 gained, 0 lost, p = 0.25); seed 1: eval -0.8 (0 gained, 1 lost, p = 1.0), eval_unseen_db +0.0 (1 gained, 1 lost, p = 1.0); mean ± sample std over seeds: eval +0.0 ± 1.1, eval_unseen_db +1.3 ± 1.8.

Wall time per run (2 runs at a time on this machine): 28.9 min, 13.0 min (alone).
<!-- /bench:train-demo -->

Fresh clone: \`npm run demo\` took 12 min 59 s with its build (5214025, 2026-12-01 23:16, notes).
`;

const COMPUTE = `<!-- bench:onnx -->
## ONNX compute core

_Measured 2026-12-07 on linux x64, 2 × AMD EPYC (AVX-512), 24 GiB, Node v20.20.2 by \`npm run bench -- onnx\` (70 s)._

| case | pass | onnxruntime ms | PyTorch ms | PyTorch / onnxruntime |
| --- | --- | --- | --- | --- |
| one block (B 8, T 256, d 256, 8 heads) | forward | 24.5 | 49.4 | 1.96× (1.68–2.07) |
| one block (B 8, T 256, d 256, 8 heads) | forward + backward | 80.4 | 108.4 | 1.26× (1.20–1.39) |
| decoder LM (4 layers, d 256, vocab 4096, T 256, B 8) | forward | 125.8 | 181.4 | 1.43× (1.37–1.76) |
| decoder LM (4 layers, d 256, vocab 4096, T 256, B 8) | forward + backward | 399.2 | 631.9 | 1.44× (1.25–1.63) |
<!-- /bench:onnx -->

<!-- bench:vs-trl -->
## Race

_Measured 2026-12-08 on linux x64, 2 × Intel(R) Xeon(R) Processor (AVX-512), 24 GiB, Node v20.20.2 by \`npm run bench -- vs-trl\` (69 s)._

**Per step, TRL / ours = 4.17: ours is 4.2× faster** (TRL 2.67 s, ours 641 ms).
<!-- /bench:vs-trl -->
`;

describe('README figures from BENCHMARKS.md', () => {
  it('reads the compute figures with the CPU each was measured on', () => {
    expect(Object.fromEntries(parseComputeFigures(COMPUTE))).toEqual({
      'onnx.date': '2026-12-07', 'onnx.cpu': '2-core AMD EPYC (AVX-512)',
      'onnx.block.forward': '1.96×', 'onnx.block.forward-backward': '1.26×', 'onnx.lm.forward': '1.43×', 'onnx.lm.forward-backward': '1.44×',
      'vs-trl.date': '2026-12-08', 'vs-trl.cpu': '2-core Intel(R) Xeon(R) Processor (AVX-512)', 'vs-trl.ratio': '4.2×', 'vs-trl.trl': '2.67 s', 'vs-trl.ours': '641 ms',
    });
    expect(() => parseComputeFigures(COMPUTE.replace('| decoder LM (4 layers, d 256, vocab 4096, T 256, B 8) | forward + backward', '| x | y'))).toThrow(/decoder LM/);
  });

  it('reads every split, seed and time of the train-demo section', () => {
    const figures = parseDemoFigures(SECTION);
    expect(figures).toMatchObject({ date: '2026-12-01', commit: '3cce0c5', seeds: ['0', '1'], questionCap: 119, aloneMinutes: '13.0 min', freshClone: { time: '12 min 59 s', commit: '5214025' } });
    expect(figures.splits).toEqual([
      { split: 'eval', sft: '95.0% ± 1.7', grpo: '95.0% ± 1.5', change: '+0.0 ± 1.1', perSeed: [{ change: '+0.8', gained: 2, lost: 1 }, { change: '−0.8', gained: 0, lost: 1 }] },
      { split: 'eval_unseen_db', sft: '16.8% ± 3.7', grpo: '18.5% ± 3.0', change: '+1.3 ± 1.8', perSeed: [{ change: '+2.5', gained: 3, lost: 0 }, { change: '+0.0', gained: 1, lost: 1 }] },
    ]);
    expect(demoBlock(figures, { eval: 119, eval_unseen_db: 246 })).toContain('`eval` all 119, `eval_unseen_db` 119 of 246');
  });

  it('rewrites the block and the inline figures, and refuses an unknown figure or a missing block', () => {
    const figures = parseDemoFigures(SECTION);
    const readme = 'A <!--fig:eval.grpo-->90%<!--/fig--> B\n<!-- figures:train-demo -->\nold\n<!-- /figures:train-demo -->\n';
    const out = renderReadmeFigures(readme, figures, { eval: 119, eval_unseen_db: 246 });
    expect(out).toContain('A <!--fig:eval.grpo-->95.0% ± 1.5<!--/fig--> B');
    expect(out).toContain('| `eval_unseen_db` | 16.8% ± 3.7 | 18.5% ± 3.0 | +1.3 ± 1.8 (+2.5, +0.0) | +3/−0, +1/−1 |');
    expect(out).not.toContain('old');
    expect(() => renderReadmeFigures(`${readme}<!--fig:eval.nope-->1<!--/fig-->`, figures, {})).toThrow(ReadmeFiguresError);
    expect(() => renderReadmeFigures('no block', figures, {})).toThrow(/figures:train-demo/);
    expect(() => parseDemoFigures(SECTION.replace('Fresh clone', 'Fresh'))).toThrow(/Fresh clone/);
  });

  it('README.md states the figures of BENCHMARKS.md (else run `npm run readme:figures`)', () => {
    expect(benchmarks).toContain('<!-- bench:train-demo -->');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe(expectedReadme(root));
  });
});
