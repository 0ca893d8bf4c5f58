import type { Info } from '../../../src/gym/env.js';
import { Rng } from '../../../src/base/rng.js';
import type { ToolCall } from '../../../src/gym/spaces/tool-call.js';
import type { SqlDataset } from '../datasets/sql-dataset.js';
import type { SqlObservation } from '../observation/sql-observation.js';
import type { SqlAction } from '../sql-env.js';
import type { SqlAgent } from './agent.js';
import { OracleAgent } from './oracle-agent.js';

/** One way small models garble a correct call. */
type Garble = (call: ToolCall, rng: Rng) => SqlAction;

const TOOL_ALIASES: Record<string, string[]> = {
  describe: ['DESCRIBE', 'Describe', 'describe_table', 'get_table_schema', 'schema'],
  sample: ['SAMPLE', 'sample_rows', 'preview', 'head'],
  query: ['QUERY', 'run_query', 'execute', 'sql', 'execute_sql'],
  answer: ['ANSWER', 'final_answer', 'submit', 'Answer'],
};
const ARGUMENT_ALIASES: Record<string, string[]> = {
  table_name: ['table', 'tableName', 'name'],
  sql: ['query', 'sql_query', 'statement'],
  value: ['answer', 'final_answer', 'result'],
  n: ['limit', 'rows'],
};
const ALL_ARGUMENTS = ['table_name', 'sql', 'value', 'n'];

/** The one argument of a call with a single meaningful argument. */
function mainArgument(call: ToolCall): [string, unknown] {
  return Object.entries(call.arguments)[0] ?? ['value', ''];
}

const GARBLES: Record<string, Garble> = {
  extraNullArguments: (call) => ({
    name: call.name,
    arguments: { ...Object.fromEntries(ALL_ARGUMENTS.filter((a) => !(a in call.arguments)).map((a) => [a, null])), ...call.arguments },
  }),
  wrongCase: (call, rng) => ({ name: rng.choice([call.name.toUpperCase(), call.name[0]!.toUpperCase() + call.name.slice(1)]), arguments: call.arguments }),
  toolAlias: (call, rng) => ({ name: rng.choice(TOOL_ALIASES[call.name] ?? [call.name]), arguments: call.arguments }),
  argumentAlias: (call, rng) => ({
    name: call.name,
    arguments: Object.fromEntries(Object.entries(call.arguments).map(([k, v]) => [rng.choice(ARGUMENT_ALIASES[k] ?? [k]), v])),
  }),
  argumentsAsString: (call) => ({ name: call.name, arguments: JSON.stringify(call.arguments) }),
  openAi: (call) => ({ type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }),
  seedForm: (call) => ({ action_type: call.name.toUpperCase(), argument: mainArgument(call)[1] }),
  mcp: (call) => ({ type: 'call_tool', tool_name: call.name, arguments: call.arguments }),
  toolCallTag: (call) => `I will call a tool.\n<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n</tool_call>`,
  unclosedToolCallTag: (call) => `<tool_call>{"name": "${call.name}", "arguments": ${JSON.stringify(call.arguments)}`,
  keywordText: (call) => {
    const [, value] = mainArgument(call);
    return `${call.name.toUpperCase()}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
  },
  functionText: (call) => {
    const args = Object.entries(call.arguments).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    return `${call.name}(${args.join(', ')})`;
  },
  positional: (call) => ({ name: call.name, arguments: mainArgument(call)[1] }),
  trailingComma: (call) => `{"name": "${call.name}", "arguments": ${JSON.stringify(call.arguments).replace(/\}$/, ',}')},}`,
};

/**
 * The oracle's plan sent through the malformations small models produce — extra null
 * arguments, wrong case, tool and argument aliases, text forms (`<tool_call>`, `QUERY: ...`,
 * `describe(table_name="x")`), JSON strings, trailing commas. Tolerant parsing must make it
 * score at least 95% of the oracle; in strict mode it fails, which is the point of tolerance.
 *
 * @example
 * ```ts
 * const report = await runEpisodes(() => env, new NoisyAgent(dataset, { seed: 1 }), { episodes: 50, seed: 0 });
 * ```
 */
export class NoisyAgent implements SqlAgent {
  readonly name = 'noisy';
  private readonly oracle: OracleAgent;
  private readonly rng: Rng;
  /** Probability that a call is garbled (default 0.9). */
  private readonly rate: number;

  /** `answerWithSql`: the oracle's plan answers with its SQL (for `answerMode: 'sql'`). */
  constructor(dataset: SqlDataset, options: { seed?: number; rate?: number; answerWithSql?: boolean } = {}) {
    this.oracle = new OracleAgent(dataset, { answerWithSql: options.answerWithSql === true });
    this.rng = new Rng(options.seed ?? 0);
    this.rate = options.rate ?? 0.9;
  }

  /** The names of the garbling forms, for tests and reports. */
  static readonly garbles: readonly string[] = Object.keys(GARBLES);

  async reset(obs: SqlObservation, info: Info): Promise<void> {
    await this.oracle.reset(obs, info);
  }

  act(obs: SqlObservation, info: Info): SqlAction {
    const call = this.oracle.act(obs, info);
    if (this.rng.float() >= this.rate) return call;
    const garble = GARBLES[this.rng.choice(NoisyAgent.garbles)]!;
    return garble(call, this.rng);
  }
}
