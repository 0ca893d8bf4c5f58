/**
 * What SFT learns from: a setup's builder plays scripted agents on the train questions SFT covers
 * and returns their trajectories; the trainer keeps the solved ones that fit and trains on them.
 * What the agents are, and how their plays combine (a recipe's rehearsed mistakes, say), is the
 * builder's business, not the trainer's.
 */
import type { ScriptedAgent, SftSequence } from './oracle-trajectories.js';

/** What the trainer hands a setup's {@link SftDataBuilder}. */
export interface SftPlayer<Obs> {
  /** The train questions SFT covers (indices into the train split's question order): the first `sft.questions`. */
  readonly questions: readonly number[];
  /** Plays each of `questions` once with `agent`, in order, and returns every trajectory, solved or not. */
  play(agent: ScriptedAgent<Obs>, questions: readonly number[]): Promise<SftSequence[]>;
  /** Reports a line where the run's progress goes. */
  print(line: string): void;
}

/**
 * Builds SFT's trajectories with the trainer's player; the trainer drops the unsolved ones and those longer
 * than `rollout.maxTotalTokens`, and reports them.
 *
 * @example
 * ```ts
 * const setup: TrainingSetup<string> = { ...rest, sftData: scriptedAgentData(() => new CountingAgent()) };
 * ```
 */
export type SftDataBuilder<Obs> = (player: SftPlayer<Obs>) => Promise<SftSequence[]>;

/**
 * The plainest SFT data: one play of every covered question by the agent `makeAgent` returns.
 *
 * @example
 * ```ts
 * runTraining({ config, policy, task, makeEnv, questionCount, sftData: scriptedAgentData(() => oracle) });
 * ```
 */
export function scriptedAgentData<Obs>(makeAgent: () => ScriptedAgent<Obs>): SftDataBuilder<Obs> {
  return (player) => player.play(makeAgent(), player.questions);
}
