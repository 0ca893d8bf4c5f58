import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedSeed, resolveSqlTrainConfig } from '../../src/recipes/sql/sql-config.js';
import { createSqlTrainingSetup } from '../../src/recipes/sql/sql-training-setup.js';
import { readRunMetrics, runTraining } from '../../src/train/training-run.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-difficulties-');

describe('sql.trainDifficulties and sql.evalDifficulties', () => {
  it('defaults to all questions', () => {
    expect(resolveSqlTrainConfig({}).sql.trainDifficulties).toEqual([]);
    expect(resolveSqlTrainConfig({}).sql.evalDifficulties).toEqual([]);
  });

  it('narrows the train split only, never the held-out splits', async () => {
    const runDir = tempDir();
    const config = resolveSqlTrainConfig({ runDir, env: { trainSplit: 'smoke', evalSplits: ['eval'] }, sql: { trainDifficulties: ['easy'] } });
    const res = await createSqlTrainingSetup(config);
    try {
      const smoke = res.datasets.get('smoke')!.questions;
      const easy = smoke.filter((q) => q.difficulty === 'easy');
      expect(easy.length).toBeGreaterThan(0);
      expect(easy.length).toBeLessThan(smoke.length);
      expect(res.setup.questionCount('smoke')).toBe(easy.length);
      for (let i = 0; i < easy.length + 2; i++) {
        const id = res.setup.task.episodeSpec?.(i, 'smoke')?.options?.['questionId'];
        expect(easy.map((q) => q.id)).toContain(id);
      }
      expect(res.setup.questionCount('eval')).toBe(res.datasets.get('eval')!.questions.length);
    } finally {
      await res.close();
    }
  });

  it('narrows the held-out splits with evalDifficulties, and names the option when nothing is left', async () => {
    const runDir = tempDir();
    const config = resolveSqlTrainConfig({ runDir, env: { trainSplit: 'smoke', evalSplits: ['eval'] }, sql: { evalDifficulties: ['hard'] } });
    const res = await createSqlTrainingSetup(config);
    try {
      const hard = new Set(res.datasets.get('eval')!.questions.filter((q) => q.difficulty === 'hard').map((q) => q.id));
      expect(res.setup.questionCount('eval')).toBe(hard.size);
      for (let i = 0; i < 20; i++) expect(hard.has(String(res.setup.task.episodeSpec?.(i, 'eval')?.options?.['questionId']))).toBe(true);
      expect(res.setup.questionCount('smoke')).toBe(res.datasets.get('smoke')!.questions.length);
    } finally {
      await res.close();
    }
    const bad = await createSqlTrainingSetup(resolveSqlTrainConfig({ runDir, env: { trainSplit: 'smoke', evalSplits: ['eval'] }, sql: { evalDifficulties: ['legendary'] } }));
    try {
      expect(() => bad.setup.questionCount('eval')).toThrow(/sql\.evalDifficulties legendary/);
    } finally {
      await bad.close();
    }
  });
});

describe('sql.generated with grpo.trainSplit', () => {
  it("loads GRPO's split of generated databases from the run directory, with the train difficulties, and reuses it", async () => {
    const runDir = tempDir();
    const config = resolveSqlTrainConfig({
      runDir,
      env: { trainSplit: 'smoke', evalSplits: ['eval'] },
      sql: { trainDifficulties: ['easy'], generated: { split: 'proc', databases: 2, questionsPerDb: 3 } },
      grpo: { trainSplit: 'proc' },
    });
    const res = await createSqlTrainingSetup(config);
    try {
      const proc = res.datasets.get('proc')!.questions;
      expect(proc).toHaveLength(6);
      expect(new Set(proc.map((q) => q.dbId))).toEqual(new Set(['proc_0', 'proc_1']));
      expect(res.setup.questionCount('proc')).toBe(6);
      expect(proc.map((q) => q.id)).toContain(res.setup.task.episodeSpec?.(0, 'proc')?.options?.['questionId']);
      // SFT's split stays the dataset's own.
      expect(res.datasets.get('smoke')!.questions.every((q) => !q.dbId.startsWith('proc_'))).toBe(true);
    } finally {
      await res.close();
    }
    const written = statSync(join(runDir, 'generated', 'proc', 'proc.json')).mtimeMs;
    const again = await createSqlTrainingSetup(config);
    await again.close();
    expect(statSync(join(runDir, 'generated', 'proc', 'proc.json')).mtimeMs).toBe(written);
  });

  it("loads the held-out questions on the practised databases, from databases the run's seed picks under seed -1", async () => {
    const generated = { split: 'adapt', databases: 2, questionsPerDb: 3, seed: -1, heldOutSplit: 'adapt_held', heldOutPerDb: 2 };
    const setupFor = (seed: number) =>
      createSqlTrainingSetup(resolveSqlTrainConfig({ runDir: tempDir(), seed, env: { trainSplit: 'smoke', evalSplits: ['adapt_held'] }, sql: { generated }, grpo: { trainSplit: 'adapt' } }));
    const texts = async (seed: number) => {
      const res = await setupFor(seed);
      try {
        const [practice, held] = [res.datasets.get('adapt')!.questions, res.datasets.get('adapt_held')!.questions];
        expect(held).toHaveLength(4);
        expect(new Set(held.map((q) => q.dbId))).toEqual(new Set(practice.map((q) => q.dbId)));
        const practised = new Set(practice.map((q) => `${q.question}|${q.goldSql}`));
        expect(held.filter((q) => practised.has(`${q.question}|${q.goldSql}`))).toEqual([]);
        return [...practice, ...held].map((q) => q.question).join('\n');
      } finally {
        await res.close();
      }
    };
    expect(await texts(0)).not.toBe(await texts(1));
    expect(generatedSeed(resolveSqlTrainConfig({ seed: 3, sql: { generated: { seed: -1 } } }))).toBe(10300);
    expect(generatedSeed(resolveSqlTrainConfig({ seed: 3 }))).toBe(1001);
    expect(() => resolveSqlTrainConfig({ env: { trainSplit: 'smoke', evalSplits: [] }, sql: { generated: { heldOutSplit: 'held' } } })).toThrow(
      /sql\.generated\.heldOutSplit "held" needs sql\.generated\.split/,
    );
  });

  it('names the options when GRPO asks for a split nothing loads', async () => {
    const res = createSqlTrainingSetup(resolveSqlTrainConfig({ runDir: tempDir(), env: { trainSplit: 'smoke', evalSplits: [] }, grpo: { trainSplit: 'procedural' } }));
    await expect(res).rejects.toThrow(/grpo\.trainSplit "procedural": no split "procedural" in .*also set sql\.generated\.split "procedural"/);
  });
});

describe("a GRPO split without a question of sql.trainDifficulties", () => {
  it('fails the run before SFT spends its time', async () => {
    const runDir = tempDir();
    const config = resolveSqlTrainConfig({
      runDir,
      env: { trainSplit: 'smoke', evalSplits: [], validationSplits: [] },
      sql: { trainDifficulties: ['hard'], generated: { split: 'proc', databases: 1, questionsPerDb: 2 } },
      grpo: { trainSplit: 'proc', steps: 1 },
      eval: { untrained: false },
      logging: { progress: false, dashboard: false },
    });
    const res = await createSqlTrainingSetup(config);
    try {
      await expect(runTraining(res.setup)).rejects.toThrow(/sql\.trainDifficulties hard: no question of split "proc"/);
    } finally {
      await res.close();
    }
    const records = await readRunMetrics(runDir);
    expect(records.filter((r) => r.kind === 'sft')).toEqual([]);
  });
});
