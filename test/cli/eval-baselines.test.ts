/**
 * The baselines' "done when" numbers, measured the way a user measures them: through
 * `sqlenv eval --json`. The oracle must solve every question of every bundled split (anything
 * less is a bug in the environment, the judge or the data); on the real Spider sample the oracle
 * is 100%, the noisy agent at least 95% of it and the random agent about 0%.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUNDLED_SPLITS, bundledRoot, readSplit } from '../../data/lib/spider-layout.js';
import { submittedAnswer } from '../../envs/sql/agents/run-episodes.js';
import { run } from '../../src/cli/eval.js';

interface EvalSummary {
  agent: string;
  episodes: number;
  success_rate: number;
  questions: number;
  skipped_questions: number;
  repair_counts: Record<string, number>;
  sampled?: { questions: number; samples: number; k: number; passAt1: number; passAtK: number; majority: number };
}

/** Runs `sqlenv eval ARGS --json` in-process and returns the JSON object of its last line. */
async function evalJson(args: string[]): Promise<EvalSummary> {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  const code = await run([...args, '--json']);
  vi.restoreAllMocks();
  expect(code).toBe(0);
  return JSON.parse(lines.at(-1)!) as EvalSummary;
}

afterEach(() => vi.restoreAllMocks());

describe('sqlenv eval --all on the bundled dataset', () => {
  it.each(BUNDLED_SPLITS)('the oracle answers every question of %s correctly', async (split) => {
    const total = readSplit(bundledRoot(), split).length;
    const r = await evalJson(['--agent', 'oracle', '--dataset', 'bundled', '--split', split, '--all']);
    expect(r.skipped_questions).toBe(0);
    expect(r.questions).toBe(total);
    expect(r.episodes).toBe(total);
    expect(r.success_rate).toBe(1);
  }, 120_000);

  it('--all and --episodes N differ: N seeded random picks versus each question once', async () => {
    const r = await evalJson(['--agent', 'oracle', '--dataset', 'bundled', '--split', 'smoke', '--episodes', '5']);
    expect(r.episodes).toBe(5);
  });
});

describe('sqlenv eval --samples K', () => {
  it('plays each question K times and reports pass@1, pass@K and the majority vote', async () => {
    const oracle = await evalJson(['--agent', 'oracle', '--split', 'validation', '--episodes', '6', '--samples', '3']);
    expect(oracle.episodes).toBe(18);
    expect(oracle.sampled).toEqual({
      questions: 6, samples: 3, k: 3, passAt1: 1, passAtK: 1, majority: 1,
      curve: [{ k: 1, passAtK: 1 }, { k: 2, passAtK: 1 }, { k: 3, passAtK: 1 }], correctPerQuestion: [3, 3, 3, 3, 3, 3],
    });
    const random = await evalJson(['--agent', 'random', '--split', 'validation', '--episodes', '4', '--samples', '2', '--step-budget', '3']);
    expect(random.sampled).toMatchObject({ questions: 4, samples: 2, k: 2 });
    expect(random.sampled!.passAtK).toBeGreaterThanOrEqual(random.sampled!.passAt1);
  }, 120_000);

  it('refuses a sample count below 1', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await run(['--agent', 'oracle', '--samples', '0'])).toBe(2);
  });
});

describe('submittedAnswer', () => {
  it('is the answer value as JSON with whitespace collapsed, or a text action as written', () => {
    expect(submittedAnswer({ name: 'answer', arguments: { value: 'SELECT  1\n' } })).toBe('"SELECT 1"');
    expect(submittedAnswer({ name: 'answer', arguments: { value: 35 } })).toBe('35');
    expect(submittedAnswer('ANSWER: 35')).toBe('ANSWER: 35');
  });
});

const SPIDER_SAMPLE = resolve(process.cwd(), '../shared/spider-sample');

describe.skipIf(!existsSync(resolve(SPIDER_SAMPLE, 'train_spider.json')))('sqlenv eval on the Spider sample (../shared/spider-sample)', () => {
  const dataset = `spider:${SPIDER_SAMPLE}`;

  it('oracle 100%, noisy at least 95% of the oracle (through repairs), random about 0%', async () => {
    const oracle = await evalJson(['--agent', 'oracle', '--dataset', dataset, '--split', 'train', '--all']);
    expect(oracle.success_rate).toBe(1);
    const noisy = await evalJson(['--agent', 'noisy', '--dataset', dataset, '--split', 'train', '--all', '--seed', '3']);
    expect(noisy.success_rate).toBeGreaterThanOrEqual(0.95 * oracle.success_rate);
    // The noisy agent succeeds *because* of tolerance: its calls were repaired, many times.
    expect(Object.values(noisy.repair_counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(noisy.episodes / 2);
    const random = await evalJson(['--agent', 'random', '--dataset', dataset, '--split', 'train', '--episodes', '200']);
    expect(random.success_rate).toBeLessThanOrEqual(0.02);
  }, 180_000);
});
