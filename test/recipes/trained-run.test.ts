/**
 * Opening a run for evaluation: what a user sees when the run directory, its config or the
 * checkpoint asked for is missing, and that nothing in the run directory is written. (The
 * weights it loads and the numbers it reproduces are checked on a real run in test/train/demo.test.ts.)
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openTrainedRun } from '../../src/recipes/sql/trained-run.js';
import { run as evalCli } from '../../src/cli/eval.js';
import { CheckpointStore } from '../../src/train/checkpoint/checkpoint-store.js';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import { writeRunConfig } from '../../src/train/run/run-config-file.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-trained-run-');
const checkpoint = (step: number) => ({
  step, weights: new Map([['w', { shape: [2], data: new Float32Array([step, 1]) }]]),
  optimizer: { step: 0, m: new Map(), v: new Map() }, rngState: [1, 2, 3, 4], extra: {},
});

describe('openTrainedRun', () => {
  it('names a missing run directory', async () => {
    await expect(openTrainedRun('/nonexistent/run', {})).rejects.toThrow(/no run directory \/nonexistent\/run/);
  });

  it('asks for --config when the run directory has no config.json', async () => {
    const dir = tempDir();
    await expect(openTrainedRun(dir, {})).rejects.toThrow(/has no config\.json .*--config FILE/);
  });

  it("says how to go on when a run's config.json uses an option path that has since moved", async () => {
    const dir = tempDir();
    await writeFile(join(dir, 'config.json'), JSON.stringify({ runDir: dir, env: { evalSplits: ['eval'], compactTools: true } }));
    await expect(openTrainedRun(dir, {})).rejects.toThrow(
      /config\.json is not a valid config today \(option "env\.compactTools" has moved to "sql\.compactTools" .*\); pass the run's config in today's layout with --config FILE/,
    );
  });

  it('says a run without checkpoints has none yet, and when runs write them', async () => {
    const dir = tempDir();
    await writeRunConfig(dir, resolveTrainConfig({ runDir: dir, env: { evalSplits: ['eval'] } }));
    await expect(openTrainedRun(dir, {})).rejects.toThrow(/no checkpoint yet: a run writes one when SFT ends \(step 0\)/);
  });

  it('lists the steps there are when the step asked for has no checkpoint, and writes nothing', async () => {
    const dir = tempDir();
    await writeRunConfig(dir, resolveTrainConfig({ runDir: dir, env: { evalSplits: ['eval'] } }));
    const store = new CheckpointStore(dir, { keep: 5 });
    await store.save(checkpoint(0));
    await store.save(checkpoint(10));
    // An interrupted save: a reader must leave it to the writer (the run may still be training).
    await writeFile(join(dir, 'checkpoints', '.tmp-step-000020-1'), '');
    const before = (await readdir(join(dir, 'checkpoints'))).sort();
    await expect(openTrainedRun(dir, { step: 5 })).rejects.toThrow(/no checkpoint of step 5; its checkpoints are of steps 0, 10/);
    expect((await readdir(join(dir, 'checkpoints'))).sort()).toEqual(before);
  });

  it('refuses a run with no test split unless one is named', async () => {
    const dir = tempDir();
    await writeRunConfig(dir, resolveTrainConfig({ runDir: dir, env: { evalSplits: [] } }));
    await expect(openTrainedRun(dir, {})).rejects.toThrow(/no test split .*--split NAME/);
  });
});

describe('sqlenv eval --run: its flags', () => {
  const errors = async (args: string[]): Promise<[number, string]> => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    try {
      return [await evalCli(args), lines.join('\n')];
    } finally {
      spy.mockRestore();
    }
  };
  it('refuses the baseline flags a run config decides, and --agent', async () => {
    const [code, out] = await errors(['--run', 'runs/x', '--agent', 'oracle', '--answer-mode', 'sql']);
    expect(code).toBe(2);
    expect(out).toMatch(/--agent and --run exclude each other/);
    expect(out).toMatch(/--answer-mode comes from the run's config with --run/);
  });
  it('refuses --checkpoint without --run, and a checkpoint that is not a step', async () => {
    expect((await errors(['--checkpoint', '3']))[1]).toMatch(/--checkpoint, --config, --guided and --traces need --run DIR/);
    expect((await errors(['--guided']))[1]).toMatch(/--guided and --traces need --run DIR/);
    expect((await errors(['--traces', 'x.jsonl']))[1]).toMatch(/--traces need --run DIR/);
    expect((await errors(['--run', 'runs/x', '--checkpoint', 'latest']))[1]).toMatch(/--checkpoint must be a step number/);
  });
  it('reads --config with the SQL recipe\'s section', async () => {
    // The demo's config has a sql section: it loads, and the missing run is what stops the evaluation.
    const [code, out] = await errors(['--run', '/nonexistent/run', '--config', 'examples/grpo-sql/quick-config.json']);
    expect(out).toMatch(/no run directory \/nonexistent\/run/);
    expect(code).toBe(1);
  });
  it('exits 1 with the reason for a run that cannot be opened', async () => {
    const [code, out] = await errors(['--run', '/nonexistent/run']);
    expect(code).toBe(1);
    expect(out).toMatch(/sqlenv eval: no run directory/);
  });
});
