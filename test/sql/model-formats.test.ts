/**
 * Tool calls as the major open model families write them, on real-looking output (chat-template
 * tokens, thinking, end-of-turn tokens, prose): each is read into the canonical call, with the
 * family's repair kind in `repairs`; what still cannot be read names the format it looks like and
 * shows the call written in it.
 */
import { describe, expect, it } from 'vitest';
import { MODEL_CALL_FORMATS, SqlActionParser, type ParsedSqlAction } from '../../envs/sql/actions/index.js';
import { SQLEnv } from '../../envs/sql/index.js';
import { useFixtureEnv } from './fixture-env.js';

const context = { tables: ['singer', 'concert', 'stadium'] };
const tolerant = new SqlActionParser('tolerant');
const strict = new SqlActionParser('strict');

const COUNT = { name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } };
const DESCRIBE = { name: 'describe', arguments: { table_name: 'singer' } };
const SAMPLE = { name: 'sample', arguments: { table_name: 'singer', n: 3 } };

function callOf(result: ParsedSqlAction) {
  if (!result.ok) throw new Error(`expected a call, got ${result.error.type}: ${result.error.message}`);
  return result.call;
}

const kinds = (result: ParsedSqlAction) => result.repairs.map((r) => r.kind);

describe('model family tool-call formats', () => {
  it.each<[string, string, unknown, string[]]>([
    ['Qwen3 <tool_call> after thinking', '<think>\nI need the number of singers.\n</think>\n\n<tool_call>\n{"name": "query", "arguments": {"sql": "SELECT count(*) FROM singer"}}\n</tool_call><|im_end|>', COUNT, []],
    ['Llama 3.1 <function=…>', '<function=query>{"sql": "SELECT count(*) FROM singer"}</function><|eot_id|>', COUNT, ['llama_function_tag']],
    ['Llama 3.1 <function=…> after prose, two calls', 'Let me look at the table first.\n<function=describe>{"table_name": "singer"}</function>\n<function=query>{"sql": "SELECT 1"}</function>', DESCRIBE, ['llama_function_tag', 'extra_tool_calls_ignored']],
    ['Llama 3.1 <|python_tag|> JSON', '<|python_tag|>{"name": "query", "parameters": {"sql": "SELECT count(*) FROM singer"}}<|eom_id|>', COUNT, ['llama_python_tag', 'envelope_key_alias']],
    ['Llama 3.1 <|python_tag|> JSON calls separated by ;', '<|python_tag|>{"name": "describe", "parameters": {"table_name": "singer"}}; {"name": "query", "parameters": {"sql": "SELECT 1"}}', DESCRIBE, ['llama_python_tag', 'extra_tool_calls_ignored', 'envelope_key_alias']],
    ['Llama 3.1 <|python_tag|> built-in style', '<|python_tag|>describe.call(table_name="singer")<|eom_id|>', DESCRIBE, ['llama_python_tag']],
    ['Llama 3.3 / Gemma plain JSON', '{"name": "describe", "parameters": {"table_name": "singer"}}', DESCRIBE, ['envelope_key_alias']],
    ['Llama 3.2 pythonic list', '[sample(table_name="singer", n=3), describe(table_name="concert")]<|eot_id|>', SAMPLE, ['llama_pythonic_list', 'extra_tool_calls_ignored']],
    ['Mistral [TOOL_CALLS] list (v3 tokenizer)', '[TOOL_CALLS] [{"name": "query", "arguments": {"sql": "SELECT count(*) FROM singer"}, "id": "a1B2c3D4e"}]</s>', COUNT, ['mistral_tool_calls']],
    ['Mistral [TOOL_CALLS]name[ARGS] (v11+ tokenizer)', '[TOOL_CALLS]query[ARGS]{"sql": "SELECT count(*) FROM singer"}</s>', COUNT, ['mistral_tool_calls']],
    ['Mistral v11+ decoded without special tokens', 'Let me count.[TOOL_CALLS]query{"sql": "SELECT count(*) FROM singer"}', COUNT, ['mistral_tool_calls']],
    ['Mistral with [CALL_ID], two calls', '[TOOL_CALLS]describe[CALL_ID]x7Kp2Qa9Z[ARGS]{"table_name": "singer"}[TOOL_CALLS]query[ARGS]{"sql": "SELECT 1"}', DESCRIBE, ['mistral_tool_calls', 'extra_tool_calls_ignored']],
    [
      'DeepSeek V3',
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>query\n```json\n{"sql": "SELECT count(*) FROM singer"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>',
      COUNT,
      ['deepseek_tool_calls'],
    ],
    ['DeepSeek V3.1', 'I will inspect it.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>describe<｜tool▁sep｜>{"table_name": "singer"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>', DESCRIBE, ['deepseek_tool_calls']],
    ['Gemma ```tool_code with print()', 'I will look at a few rows.\n```tool_code\nprint(sample(table_name="singer", n=3))\n```', SAMPLE, ['gemma_tool_code']],
    ['Gemma ```tool_code bare call', '```tool_code\ndescribe(table_name="singer")\n```<end_of_turn>', DESCRIBE, ['gemma_tool_code']],
    ['Phi-4-mini <|tool_call|>', '<|tool_call|>[{"name": "query", "arguments": {"sql": "SELECT count(*) FROM singer"}}]<|/tool_call|><|end|>', COUNT, ['phi_tool_call']],
    ['Phi functools', 'functools[{"name": "describe", "arguments": {"table_name": "singer"}}]', DESCRIBE, ['phi_tool_call']],
    ['ReAct, SQL input', 'Thought: I should count the singers.\nAction: query\nAction Input: SELECT count(*) FROM singer\nObservation:', COUNT, ['react_action', 'positional_argument']],
    ['ReAct, JSON input', 'Thought: first the columns.\nAction: describe\nAction Input: {"table_name": "singer"}', DESCRIBE, ['react_action']],
    ['ReAct, quoted input in backticks', 'Action: `describe`\nAction Input: "singer"', DESCRIBE, ['react_action', 'positional_argument']],
    ['prose around a ```sql block', 'To count the singers I will run:\n\n```sql\nSELECT count(*) FROM singer\n```\n\nThis returns the total.', COUNT, ['fenced_sql']],
  ])('%s', (_label, text, expected, repairKinds) => {
    const result = tolerant.parse(text, context);
    expect(callOf(result)).toEqual(expected);
    expect(kinds(result)).toEqual(repairKinds);
    expect(result.form).toBe(repairKinds[0] === undefined ? 'tool_call_tag' : repairKinds[0] === 'envelope_key_alias' ? 'json_text' : 'model_format');
  });

  it('runs the last of several SQL blocks in prose', () => {
    const result = tolerant.parse('A first try:\n```sql\nSELECT 1\n```\nBetter:\n```sql\nSELECT count(*) FROM singer\n```', context);
    expect(callOf(result)).toEqual(COUNT);
    expect(result.repairs[0]).toEqual({ kind: 'fenced_sql', detail: 'ran the last of 2 SQL blocks in the text' });
  });

  it('decodes arguments encoded twice, as an object and inside <tool_call>', () => {
    const twice = JSON.stringify(JSON.stringify({ sql: 'SELECT count(*) FROM singer' }));
    for (const action of [{ name: 'query', arguments: twice }, `<tool_call>{"name": "query", "arguments": ${JSON.stringify(twice)}}</tool_call>`]) {
      const result = tolerant.parse(action, context);
      expect(callOf(result)).toEqual(COUNT);
      expect(kinds(result)).toEqual(['arguments_double_encoded']);
    }
  });

  it('names the format and shows the call written in it when it cannot be read', () => {
    const mistral = tolerant.parse('[TOOL_CALLS] I will call the query tool now', context);
    expect(mistral.ok).toBe(false);
    expect(mistral.ok ? '' : mistral.error.message).toContain('it looks like a Mistral [TOOL_CALLS] tool call, but after [TOOL_CALLS] comes neither');
    expect(mistral.ok ? '' : mistral.error.message).toContain('In the Mistral [TOOL_CALLS] format: [TOOL_CALLS] [{"name": "describe", "arguments": {"table_name": "singer"}}]');

    const react = tolerant.parse('Action: I will query the table\nAction Input: SELECT 1', context);
    expect(react.ok ? '' : react.error.message).toMatch(/ReAct Action\/Action Input tool call, but its Action: line names no tool.*In the ReAct Action\/Action Input format: Action: describe\nAction Input: singer/s);

    const unknown = tolerant.parse('<function=search_web>{"query": "singers"}</function>', context);
    expect(unknown.ok ? '' : unknown.error.type).toBe('unknown_tool');
    expect(unknown.ok ? '' : unknown.error.message).toContain('In the Llama 3.x <function=…> format: <function=describe>{"table_name": "singer"}</function>');

    const missing = tolerant.parse('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>query\n```json\n{}\n```<｜tool▁call▁end｜>', context);
    expect(missing.ok ? '' : missing.error.type).toBe('missing_argument');
    expect(missing.ok ? '' : missing.error.message).toContain('<｜tool▁call▁begin｜>function<｜tool▁sep｜>query\n```json\n{"sql": "SELECT * FROM singer LIMIT 5"}\n```');
  });

  it('strict mode refuses a family format and shows the call in it', () => {
    const result = strict.parse('[TOOL_CALLS]describe[ARGS]{"table_name": "singer"}', context);
    expect(result.ok ? '' : result.error.type).toBe('parse_error');
    expect(result.ok ? '' : result.error.message).toMatch(/^Strict mode refuses repairs: read a Mistral \[TOOL_CALLS\] call\. Call it as \{"name": "describe"/);
  });

  it('writes each format example so that the parser reads it back as the same call', () => {
    for (const format of MODEL_CALL_FORMATS) {
      for (const call of [DESCRIBE, COUNT, SAMPLE]) {
        const text = format.example(call);
        if (format.repair === 'fenced_sql' && call.name !== 'query') continue;
        const prose = format.repair === 'fenced_sql' ? `Run this:\n${text}` : text;
        expect(callOf(tolerant.parse(prose, context)), `${format.family}: ${text}`).toEqual(call);
      }
    }
  });
});

describe('prose formats keep plain calls their meaning', () => {
  it('reads a tool keyword before a fenced block as that tool, fence removed', () => {
    expect(callOf(tolerant.parse('QUERY:\n```sql\nSELECT count(*) FROM singer;\n```', context))).toEqual(COUNT);
    expect(callOf(tolerant.parse('Final answer: ```sql\nSELECT 1\n```', context))).toEqual({ name: 'answer', arguments: { value: 'SELECT 1' } });
    // Prose that opens with a tool's word means the block it shows.
    const run = tolerant.parse('Run this to count them:\n```sql\nSELECT count(*) FROM singer\n```', context);
    expect(callOf(run)).toEqual(COUNT);
    expect(kinds(run)).toEqual(['fenced_sql']);
    const react = tolerant.parse('Describe what I need first.\nAction: describe\nAction Input: singer', context);
    expect(callOf(react)).toEqual(DESCRIBE);
    expect(kinds(react)[0]).toBe('react_action');
  });

  it('leaves a fenced SQL value inside a JSON call alone', () => {
    const action = '{"name": "answer", "arguments": {"value": "see\\n```sql\\nSELECT 1\\n```"}}';
    const result = tolerant.parse(action, context);
    expect(callOf(result).name).toBe('answer');
    expect(kinds(result)).not.toContain('fenced_sql');
  });
});

describe('model family formats through SQLEnv.step', () => {
  const concert = useFixtureEnv();

  it('runs a Mistral call and reports the family in info.repairs and action_form', async () => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool });
    try {
      await env.reset({ options: { questionId: 'train-0000' } });
      const [, , , , info] = await env.step('[TOOL_CALLS]query[ARGS]{"sql": "SELECT count(*) FROM singer"}</s>');
      expect(info).toMatchObject({ tool: 'query', action_form: 'model_format', error_type: null });
      expect(info.repairs).toEqual([{ kind: 'mistral_tool_calls', detail: 'read a Mistral [TOOL_CALLS] call' }]);
      expect(info.result?.rows).toEqual([[6]]);
    } finally {
      await env.close();
    }
  });
});

describe('model family formats on hostile text', () => {
  // Each took from seconds to minutes with a lazy match and a look-ahead, or a name match that backtracked.
  it.each<[string, string]>([
    ['ReAct input over 100,000 short lines', `Action: query\nAction Input: a${'\n '.repeat(100_000)}`],
    ['ReAct markers without a tool', `${'Action: \n'.repeat(20_000)}Action Input: x`],
    ['an unclosed <function= run', '<function='.repeat(50_000)],
    ['an unclosed <function=name> with a long body', `<function=query>${'{'.repeat(200_000)}`],
    ['SQL fences that never close', `Hi\n${'```sql\n'.repeat(50_000)}`],
    ['DeepSeek call begins without a separator', '<｜tool▁call▁begin｜>'.repeat(20_000)],
    ['a deep pythonic list', `[${'a('.repeat(50_000)})]`],
    ['tool_code prints nested deep', `\`\`\`tool_code\n${'print('.repeat(50_000)}`],
    ['prose opening with a tool word and a long tail', `Run ${'x'.repeat(200_000)}\n\`\`\``],
  ])('%s: answered in well under a second, never thrown', (_label, text) => {
    const started = performance.now();
    const result = tolerant.parse(text, context);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(typeof result.ok).toBe('boolean');
  });
});
