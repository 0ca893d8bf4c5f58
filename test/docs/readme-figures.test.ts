/**
 * README.md's figures come from BENCHMARKS.md: the generated block and every inline figure are
 * what bench/readme-figures.ts writes (`npm run readme:figures`), so no two sections disagree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoBlock, expectedReadme, parseDemoFigures, renderReadmeFigures, ReadmeFiguresError } from '../../bench/readme-figures.js';

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

describe('README figures from BENCHMARKS.md', () => {
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
