/**
 * Supervised trajectories from a scripted agent (SQLEnv's OracleAgent turns any question into a
 * multi-turn exploration that ends in the right answer): the same token layout as rollouts —
 * prompt, assistant turns (trained), tool responses (masked).
 */
import type { Env, Info } from '../../gym/env.js';
import type { ChatCodec } from '../policy/trainable-policy.js';
import { actionFromText } from '../rollout/multi-turn-rollout.js';
import { openingMessages, promptToolsOf, resetOptionsOf, type EpisodeSpec, type RolloutTask } from '../rollout/rollout-task.js';

/** An agent that picks actions from observations (RandomAgent, OracleAgent, NoisyAgent…). */
export interface ScriptedAgent<Obs> {
  /** Called with the reset observation before the first action, when the agent has it. */
  reset?(obs: Obs, info: Info): void | Promise<void>;
  act(obs: Obs, info: Info): unknown | Promise<unknown>;
  /** False when the action just returned is a deliberate mistake: played for the feedback, not learned. Default true. */
  demonstrates?(): boolean;
}

/** A supervised sequence: tokens and the mask of tokens to learn. */
export interface SftSequence {
  tokens: number[];
  mask: number[];
  /** Assistant texts, for inspection. */
  assistantTexts: string[];
  correct: boolean;
  /** Some assistant turn is a rehearsed mistake (played, masked out of the loss); absent: none is. */
  rehearsed?: boolean;
}

/**
 * The assistant text for an action: tool-call objects become a Hermes `<tool_call>` block
 * with exactly the call's arguments; strings are used as they are.
 *
 * @example
 * ```ts
 * actionToAssistantText({ name: 'describe', arguments: { table_name: 'singer' } });
 * // '<tool_call>\n{"name": "describe", "arguments": {"table_name":"singer"}}\n</tool_call>'
 * ```
 */
export function actionToAssistantText(action: unknown): string {
  if (typeof action === 'string') return action;
  if (action && typeof action === 'object' && 'name' in action) {
    const a = action as { name: unknown; arguments?: unknown };
    return `<tool_call>\n{"name": ${JSON.stringify(a.name)}, "arguments": ${JSON.stringify(a.arguments ?? {})}}\n</tool_call>`;
  }
  return JSON.stringify(action);
}

/**
 * Plays one episode with `agent` and encodes it for SFT.
 *
 * @example
 * ```ts
 * const seq = await agentTrajectory(env, new OracleAgent(), task, policy.codec, { seed: 3 }, 10);
 * ```
 */
export async function agentTrajectory<Obs>(
  env: Env<Obs, unknown>,
  agent: ScriptedAgent<Obs>,
  task: RolloutTask<Obs>,
  codec: ChatCodec,
  spec: EpisodeSpec,
  maxTurns: number,
): Promise<SftSequence> {
  let [obs, info] = await env.reset(resetOptionsOf(spec));
  await agent.reset?.(obs, info);
  const tokens = codec.encodeStart(openingMessages(task, obs, info), promptToolsOf(task));
  const mask = tokens.map(() => 0);
  const assistantTexts: string[] = [];
  let correct = false;
  let rehearsed = false;
  for (let turn = 0; turn < maxTurns; turn++) {
    // The env receives what a model writing this text would send, so SFT data and rollouts
    // go through the same parsing path.
    const text = actionToAssistantText(await agent.act(obs, info));
    assistantTexts.push(text);
    const turnTokens = codec.encodeAssistantTurn(text);
    tokens.push(...turnTokens);
    const learned = agent.demonstrates?.() ?? true;
    rehearsed ||= !learned;
    mask.push(...turnTokens.map(() => (learned ? 1 : 0)));
    const [nextObs, , terminated, truncated, nextInfo] = await env.step(actionFromText(text).action);
    obs = nextObs;
    info = nextInfo;
    if (terminated || truncated) {
      correct = nextInfo['is_correct'] === true;
      break;
    }
    const response = codec.encodeToolResponses([task.renderStepResult(obs, info)]);
    tokens.push(...response);
    mask.push(...response.map(() => 0));
  }
  return { tokens, mask, assistantTexts, correct, rehearsed };
}
