import { describe, expect, it } from 'vitest';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import { createSqlTrainingSetup } from '../../src/recipes/sql-training-setup.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-difficulties-');

describe('env.trainDifficulties and env.evalDifficulties', () => {
  it('defaults to all questions', () => {
    expect(resolveTrainConfig({}).env.trainDifficulties).toEqual([]);
    expect(resolveTrainConfig({}).env.evalDifficulties).toEqual([]);
  });

  it('narrows the train split only, never the held-out splits', async () => {
    const runDir = tempDir();
    const config = resolveTrainConfig({ runDir, env: { trainSplit: 'smoke', evalSplits: ['eval'], trainDifficulties: ['easy'] } });
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
    const config = resolveTrainConfig({ runDir, env: { trainSplit: 'smoke', evalSplits: ['eval'], evalDifficulties: ['hard'] } });
    const res = await createSqlTrainingSetup(config);
    try {
      const hard = new Set(res.datasets.get('eval')!.questions.filter((q) => q.difficulty === 'hard').map((q) => q.id));
      expect(res.setup.questionCount('eval')).toBe(hard.size);
      for (let i = 0; i < 20; i++) expect(hard.has(String(res.setup.task.episodeSpec?.(i, 'eval')?.options?.['questionId']))).toBe(true);
      expect(res.setup.questionCount('smoke')).toBe(res.datasets.get('smoke')!.questions.length);
    } finally {
      await res.close();
    }
    const bad = await createSqlTrainingSetup(resolveTrainConfig({ runDir, env: { trainSplit: 'smoke', evalSplits: ['eval'], evalDifficulties: ['legendary'] } }));
    try {
      expect(() => bad.setup.questionCount('eval')).toThrow(/env\.evalDifficulties legendary/);
    } finally {
      await bad.close();
    }
  });
});
