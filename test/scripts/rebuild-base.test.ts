/**
 * The rebuild of the bundled base (scripts/model/rebuild-base.ts, `npm run model:pretrain`):
 * its checks, and the path a step takes — a worktree of its commit, compiled and run on this
 * checkout's node_modules — on a run shrunk to seconds. The full-size rebuild is measured in
 * docs/experiments/history.md ("The bundled base, rebuilt").
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareModelDirs, lockfileMismatches, rebuildBase, RebuildBaseError, SHIPPED_TRAINING_STEPS } from '../../scripts/model/rebuild-base.js';
import { packageRoot } from '../../src/base/package-root.js';

const root = mkdtempSync(join(tmpdir(), 'sqlenv-rebuild-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Whether this checkout holds the commits the shipped steps ran (a tarball or a shallow clone does not). */
function hasHistory(): boolean {
  try {
    for (const s of SHIPPED_TRAINING_STEPS) execFileSync('git', ['-C', packageRoot(), 'cat-file', '-e', `${s.commit}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('lockfileMismatches', () => {
  it('lists the packages a commit pinned to another version, or that are not installed', () => {
    const commit = { packages: { '': { version: '0.1.0' }, 'node_modules/ajv': { version: '8.1.0' }, 'node_modules/ws': { version: '8.0.0' }, 'node_modules/yaml': { version: '2.0.0' } } };
    const installed = { packages: { '': { version: '0.2.0' }, 'node_modules/ajv': { version: '8.2.0' }, 'node_modules/ws': { version: '8.0.0' }, 'node_modules/extra': { version: '1.0.0' } } };
    expect(lockfileMismatches(commit, installed)).toEqual(['ajv: 8.1.0 in the commit, 8.2.0 installed', 'yaml: 2.0.0 in the commit, not installed']);
    expect(lockfileMismatches(installed, installed)).toEqual([]);
  });
});

describe('compareModelDirs', () => {
  it('compares every file of the rebuilt directory by content', async () => {
    const a = join(root, 'a');
    const b = join(root, 'b');
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, 'same.json'), '{}');
    writeFileSync(join(b, 'same.json'), '{}');
    writeFileSync(join(a, 'model.safetensors'), 'x');
    writeFileSync(join(b, 'model.safetensors'), 'y');
    writeFileSync(join(a, 'only-here.txt'), '');
    const files = await compareModelDirs(a, b);
    expect(files.map((f) => [f.file, f.identical, f.referenceSha256 !== undefined])).toEqual([
      ['model.safetensors', false, true],
      ['only-here.txt', false, false],
      ['same.json', true, true],
    ]);
  });
});

describe('rebuildBase', () => {
  const options = { work: join(root, 'work'), reference: join(packageRoot(), 'models', 'tiny-sql'), keepWork: false, print: () => {} };

  it('refuses to write over the reference it compares with', async () => {
    await expect(rebuildBase({ ...options, out: options.reference, steps: SHIPPED_TRAINING_STEPS })).rejects.toThrow(/--out is the reference directory/);
  });

  it('says what to do when a step\'s commit is not in the repository', async () => {
    const missing = { ...SHIPPED_TRAINING_STEPS[0]!, commit: 'f'.repeat(40) };
    const err = await rebuildBase({ ...options, out: join(root, 'never'), steps: [missing] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RebuildBaseError);
    expect((err as Error).message).toMatch(/commit fffffff is not in this repository.*git fetch --unshallow/);
  });

  it('hands each step the previous step\'s model: the procedural stage continues from the query pre-training', () => {
    const [first, second] = SHIPPED_TRAINING_STEPS;
    expect(first!.args(undefined, '/w/model-1', '/w/run-1')).toEqual(['--out', '/w/model-1']);
    expect(second!.args('/w/model-1', '/w/model-2', '/w/run-2')).toEqual(['--from', '/w/model-1', '--out', '/w/model-2', '--run-dir', '/w/run-2']);
  });

  // The path every step takes (worktree of its commit, compiled on this checkout's node_modules, run, then the
  // later file fix and the comparison), on the first step shrunk to seconds. The second step's script is a demo
  // run of its commit, minutes even when shrunk; its full-size rebuild is measured in docs/experiments/history.md.
  it.skipIf(!hasHistory())('runs a shipped step by its own commit\'s code, then applies the later file fix and compares', async () => {
    const lines: string[] = [];
    const out = join(root, 'rebuilt');
    const files = await rebuildBase({
      ...options,
      out,
      steps: [SHIPPED_TRAINING_STEPS[0]!],
      extraArgs: [['--questions', '8', '--epochs', '1']], // 8 questions for one epoch instead of 1,758 for 16
      print: (l) => lines.push(l),
    });
    expect(lines[0]).toBe(`step 1/1: ${SHIPPED_TRAINING_STEPS[0]!.name}, by the code of 5e1431b`);
    expect(lines.some((l) => l.includes('pre-training 1.05M parameters on 8 train questions × 1 epochs'))).toBe(true);
    const byName = new Map(files.map((f) => [f.file, f]));
    expect([...byName.keys()].sort()).toEqual(['config.json', 'generation_config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
    // The shrunk run trains other weights, and the comparison says so; the tokenizer it trains is the shipped
    // one, and the later fix of the tokenizer config is applied.
    expect(byName.get('model.safetensors')!.identical).toBe(false);
    expect(lines.some((l) => l.startsWith('The weights differ'))).toBe(true);
    expect(byName.get('tokenizer.json')!.identical).toBe(true);
    expect(byName.get('tokenizer_config.json')!.identical).toBe(true);
    expect(readFileSync(join(out, 'tokenizer_config.json'), 'utf8')).toContain('PreTrainedTokenizerFast');
    // No worktree is left behind.
    expect(execFileSync('git', ['-C', packageRoot(), 'worktree', 'list'], { encoding: 'utf8' })).not.toContain(options.work);
  }, 300_000);
});
