/**
 * The trainer is generic over any `Env` with a text task (test/base/layers.test.ts checks that it
 * imports no environment): a whole run (evaluation, format check, SFT, GRPO, final evaluation) trains a policy on
 * GuessNumber, a toy game that knows nothing of the trainer, behind a one-tool task.
 */
import { describe, expect, it } from 'vitest';
import { GuessNumber } from '../../envs/guess/guess-number.js';
import type { Info, StepResult } from '../../src/gym/env.js';
import { ActionWrapper } from '../../src/gym/wrapper.js';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import type { RolloutTask } from '../../src/train/rollout/rollout-task.js';
import type { ScriptedAgent } from '../../src/train/sft/oracle-trajectories.js';
import { scriptedAgentData } from '../../src/train/sft/sft-data.js';
import { readRunMetrics, runTraining } from '../../src/train/training-run.js';
import { useTempDirs } from '../helpers/temp-dirs.js';
import { BigramPolicy } from './fixtures/bigram-policy.js';

const MAX = 4;

/** GuessNumber behind a `guess` tool: reads the number from a tool call (or the first digit of plain text); marks wins as correct. */
class GuessTool extends ActionWrapper<unknown, number, string> {
  action(action: unknown): number {
    const args = typeof action === 'object' && action !== null ? (action as { arguments?: { n?: unknown } }).arguments : undefined;
    const text = args !== undefined ? String(args.n ?? '') : String(action);
    const digit = /\d/.exec(text);
    return digit ? Number(digit[0]) : 0;
  }
  override async step(action: unknown): Promise<StepResult<string>> {
    const [obs, reward, terminated, truncated, info] = await super.step(action);
    const out: Info = { ...info };
    if (terminated) out['is_correct'] = reward > 0;
    return [obs, reward, terminated, truncated, out];
  }
}

const guessTask: RolloutTask<string> = {
  systemPrompt: 'Guess the number.',
  tools: [{ name: 'g', description: 'guess', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }],
  renderInitial: (obs) => obs,
  renderStepResult: (obs) => obs,
  questionOf: (obs) => obs,
};

/** Guesses 1, 2, 3, … (plain text) until told "Correct!": always wins within MAX turns. */
class CountingAgent implements ScriptedAgent<string> {
  private next = 1;
  reset(): void {
    this.next = 1;
  }
  act(): unknown {
    return String(this.next++);
  }
}

const tempDir = useTempDirs('sqlenv-guess-');

describe('the trainer is generic over tool-using environments', () => {
  it('trains a policy on GuessNumber: the SFT and GRPO phases run and held-out success rises', async () => {
    const runDir = tempDir();
    const lines: string[] = [];
    const config = resolveTrainConfig({
      mode: 'sft+grpo',
      runDir,
      seed: 5,
      env: { trainSplit: 'train', evalSplits: ['eval'], stepBudget: MAX },
      rollout: { numGenerations: 4, questionsPerStep: 2, maxTurns: MAX, maxNewTokensPerTurn: 48, maxTotalTokens: 320 },
      grpo: { steps: 3, loss: { beta: 0 } },
      optim: { lr: 0.1, warmupSteps: 0 },
      sft: { epochs: 6, batchSize: 4, lr: 0.5, questions: 12, formatCheckSamples: 4 },
      eval: { everySteps: 0, episodes: 8, baselineEpisodes: 0 },
      checkpoint: { everySteps: 0, keep: 1 },
      logging: { progress: false, tracesPerStep: 1, dashboard: false },
    });
    const summary = await runTraining({
      config,
      policy: new BigramPolicy(),
      task: guessTask,
      makeEnv: () => new GuessTool(new GuessNumber({ maxNumber: MAX })),
      questionCount: () => 100,
      sftData: scriptedAgentData(() => new CountingAgent()),
      print: (line) => lines.push(line),
    });
    expect(summary.sftSteps).toBeGreaterThan(0);
    expect(summary.grpoSteps).toBe(3);
    expect(summary.evaluations['final']!['eval']!.success).toBeGreaterThan(summary.evaluations['untrained']!['eval']!.success);
    const train = (await readRunMetrics(runDir)).filter((r) => r.kind === 'train');
    expect(train).toHaveLength(3);
    for (const r of train) expect(Number.isFinite(r['loss'])).toBe(true);
    // The run's config has no recipe section, and the trainer's own schema knows none.
    expect(Object.keys(config).sort()).toEqual(['alarms', 'checkpoint', 'env', 'eval', 'grpo', 'logging', 'mode', 'model', 'optim', 'rollout', 'runDir', 'seed', 'sft']);
    expect(() => resolveTrainConfig({ sql: { compactTools: true } })).toThrow(/unknown option "sql"/);
  });
});
