import { describe, expect, it, vi } from 'vitest';
import { checkToolCallFormat } from '../../src/train/diagnostics/format-check.js';
import { estimateTrainingMemory, formatBytes } from '../../src/train/diagnostics/memory-estimate.js';
import { formatDuration, formatProgress } from '../../src/train/metrics/progress-line.js';
import { parseMetrics } from '../../src/train/metrics/metrics-log.js';
import { actionToAssistantText } from '../../src/train/sft/oracle-trajectories.js';
import { compactSystemPrompt, compactTool } from '../../src/recipes/sql/task/sql-task.js';
import { run as trainCli } from '../../src/cli/train.js';
import { isMalformedCall } from '../../src/train/rollout/rollout-task.js';

const tools = [
  { name: 'describe', description: 'd', parameters: { type: 'object', properties: { table_name: { type: 'string' } }, required: ['table_name'] } },
  { name: 'sample', description: 's', parameters: { type: 'object', properties: { table_name: { type: 'string' }, n: { type: 'integer' } }, required: ['table_name'] } },
];

describe('checkToolCallFormat', () => {
  it('counts only calls with exactly the schema arguments (extra nulls fail, optional args pass)', () => {
    const r = checkToolCallFormat([
      '<tool_call>{"name":"describe","arguments":{"table_name":"t"}}</tool_call>',
      '<tool_call>{"name":"describe","arguments":{"table_name":"t","sql":null}}</tool_call>',
      '<tool_call>{"name":"sample","arguments":{"table_name":"t","n":3}}</tool_call>',
      '<tool_call>{"name":"sample","arguments":{}}</tool_call>',
      '<tool_call>{"name":"drop","arguments":{}}</tool_call>',
      '<tool_call>{oops</tool_call>',
      'no call at all',
    ], tools);
    expect(r).toMatchObject({ turns: 7, calls: 6, exact: 2, turnsWithoutCall: 1 });
    expect(r.share).toBeCloseTo(2 / 7, 12);
  });
});

describe('checkToolCallFormat reads turns as the rollout does', () => {
  it('does not count a call written inside <think> (a plan the rollout never runs)', () => {
    const call = '<tool_call>{"name":"describe","arguments":{"table_name":"t"}}</tool_call>';
    const r = checkToolCallFormat([`<think>first ${call}</think>no call`, `<think>plan</think>${call}`], tools);
    expect(r).toMatchObject({ turns: 2, calls: 1, exact: 1, turnsWithoutCall: 1 });
  });
});

describe('isMalformedCall', () => {
  it("counts the task's malformed-call errors, and without a list only failed turns with no parsable call", () => {
    const sql = { malformedCallErrors: ['parse_error', 'missing_argument'] };
    expect(isMalformedCall(sql, true, 'missing_argument')).toBe(true);
    expect(isMalformedCall(sql, true, 'sql_error')).toBe(false);
    expect(isMalformedCall(sql, false, 'parse_error')).toBe(true);
    expect(isMalformedCall(sql, true, undefined)).toBe(false);
    expect(isMalformedCall({}, false, 'bad_action')).toBe(true);
    expect(isMalformedCall({}, true, 'bad_action')).toBe(false);
    expect(isMalformedCall({}, false, null)).toBe(false); // the step succeeded (the env repaired the text)
  });
});

describe('progress line', () => {
  it('shows step, reward, success, throughput and ETA', () => {
    expect(formatProgress({ phase: 'grpo', step: 2, totalSteps: 4, reward: 0.5, success: 0.25, tokensPerSecond: 800, elapsedMs: 4000, stepsThisProcess: 2 })).toBe(
      'grpo step 2/4 | reward 0.500 | success 25.0% | 800 tok/s | ETA 4s',
    );
    expect(formatDuration(3_725_000)).toBe('1h02m');
    expect(formatDuration(192_000)).toBe('3m12s');
  });
});

describe('metrics parsing', () => {
  it('skips a torn last line', () => {
    expect(parseMetrics('{"kind":"train","step":1,"time":0}\n{"kind":"tr')).toHaveLength(1);
  });
});

describe('memory estimate', () => {
  it('adds weights, 3 optimizer copies of the trainable part and activations', () => {
    const e = estimateTrainingMemory({ parameters: 1000, trainableParameters: 100, layers: 1, hidden: 2, vocab: 3, batch: 1, sequenceLength: 1 });
    expect(e.weights).toBe(4000);
    expect(e.optimizer).toBe(3200);
    expect(e.activations).toBe((32 + 6) * 4);
    expect(formatBytes(3 * 2 ** 30)).toBe('3.00 GiB');
  });
});

describe('SQL task helpers', () => {
  it('renders oracle actions as Hermes tool calls and compacts tool schemas', () => {
    expect(actionToAssistantText({ name: 'describe', arguments: { table_name: 'singer' } })).toBe('<tool_call>\n{"name": "describe", "arguments": {"table_name":"singer"}}\n</tool_call>');
    const c = compactTool({ name: 'query', description: 'Run one statement. More text.', parameters: { type: 'object', properties: { sql: { type: 'string', minLength: 1 } }, required: ['sql'] } });
    expect(c).toEqual({ name: 'query', description: 'Run one statement', parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] } });
    expect(compactSystemPrompt([c])).toContain('Tools: query(sql).');
  });
});

describe('sqlenv train (CLI)', () => {
  it('rejects a mistyped option with a suggestion and exit code 2', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await trainCli(['--defaults', '--set', 'rollout.numGeneration=4'])).toBe(2);
      expect(String(err.mock.calls[0]![0])).toMatch(/did you mean "numGenerations"/);
    } finally {
      err.mockRestore();
    }
  });

  it('prints the resolved config and the option table', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((s: unknown) => void lines.push(String(s)));
    try {
      expect(await trainCli(['--set', 'grpo.steps=3', '--print-config'])).toBe(0);
      expect(JSON.parse(lines[0]!).grpo.steps).toBe(3);
      expect(await trainCli(['--options'])).toBe(0);
      expect(lines[1]).toMatch(/^\| option \| type \| default \| description \|/);
    } finally {
      log.mockRestore();
    }
  });
});
