/**
 * The post-SFT format check: of the tool calls a model writes, how many parse and carry
 * exactly the arguments the tool's schema names (no missing required ones, no extras — the
 * extra-null-arguments habit is what collapsed the seed's GRPO run).
 */
import { parseAssistantReply } from '../../lm/tool-calls.js';
import type { PolicyTool } from '../policy/trainable-policy.js';

/** Counts behind the format check. */
export interface FormatCheckResult {
  /** Assistant turns examined. */
  turns: number;
  /** Turns with no `<tool_call>` block at all. */
  turnsWithoutCall: number;
  /** `<tool_call>` blocks found. */
  calls: number;
  /** Blocks that parsed into `{name, arguments}`. */
  parsed: number;
  /** Parsed calls to a known tool with exactly the schema's arguments. */
  exact: number;
  /** exact / max(calls, turns without a call counted as failures): the headline number. */
  share: number;
}

function argumentsMatch(args: unknown, tool: PolicyTool): boolean {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return false;
  const props = (tool.parameters['properties'] ?? {}) as Record<string, unknown>;
  const required = (tool.parameters['required'] ?? []) as string[];
  const keys = Object.keys(args);
  return keys.every((k) => k in props) && required.every((k) => keys.includes(k));
}

/**
 * Checks the tool-call format of assistant turns against the tool schemas.
 *
 * @example
 * ```ts
 * checkToolCallFormat(['<tool_call>{"name":"describe","arguments":{"table_name":"t","sql":null}}</tool_call>'], tools).exact; // 0
 * ```
 */
export function checkToolCallFormat(texts: readonly string[], tools: readonly PolicyTool[]): FormatCheckResult {
  const byName = new Map(tools.map((t) => [t.name, t]));
  let calls = 0, parsed = 0, exact = 0, without = 0;
  for (const text of texts) {
    // Read as the rollout reads a turn: calls written inside <think> are plans, not calls.
    const reply = parseAssistantReply(text);
    const blocks = reply.toolCalls.length + reply.failures.length;
    if (blocks === 0) without++;
    calls += blocks;
    parsed += reply.toolCalls.length;
    for (const c of reply.toolCalls) {
      const tool = byName.get(c.name);
      if (tool && argumentsMatch(c.arguments, tool)) exact++;
    }
  }
  const denominator = calls + without;
  return { turns: texts.length, turnsWithoutCall: without, calls, parsed, exact, share: denominator > 0 ? exact / denominator : 0 };
}
