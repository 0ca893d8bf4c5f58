/**
 * `sqlenv lm <logprobs|grad|generate|create-tiny>`: language-model tools on a Hugging Face
 * model directory (see docs/lm.md).
 */
import type { ParseArgsConfig } from 'node:util';
import { LoraAdapter, Policy, createTinyModel, loadModel, writeSafetensors, type LanguageModel } from '../lm/index.js';
import { parseCommandArgs } from './command-args.js';
import { CliUsageError } from './cli-error.js';

const HELP = { help: { type: 'boolean', short: 'h', default: false } } as const;

/** Each subcommand's usage text and flags (an unknown flag prints that usage, exit 2). */
const COMMANDS = {
  logprobs: {
    usage: `usage: sqlenv lm logprobs --model DIR --tokens 1,2,3 [--adapter DIR] [--json]
               log p(token[t+1] | tokens[0..t]) for each t`,
    options: {
      model: { type: 'string' },
      tokens: { type: 'string' },
      adapter: { type: 'string' },
      json: { type: 'boolean', default: false },
      ...HELP,
    },
  },
  grad: {
    usage: `usage: sqlenv lm grad --model DIR --tokens 1,2,3 --out FILE.safetensors
               gradient of the negative log-likelihood −Σ logprobs for every parameter,
               under the checkpoint's names`,
    options: {
      model: { type: 'string' },
      tokens: { type: 'string' },
      out: { type: 'string' },
      ...HELP,
    },
  },
  generate: {
    usage: `usage: sqlenv lm generate --model DIR --prompt TEXT [--chat] [--max-tokens N] [--temperature T]
               [--top-p P] [--top-k K] [--seed S] [--adapter DIR] [--json]
               samples a completion (--chat wraps the prompt in the chat template)`,
    options: {
      model: { type: 'string' },
      prompt: { type: 'string' },
      adapter: { type: 'string' },
      chat: { type: 'boolean', default: false },
      'max-tokens': { type: 'string', default: '128' },
      temperature: { type: 'string', default: '1' },
      'top-p': { type: 'string' },
      'top-k': { type: 'string' },
      seed: { type: 'string', default: '0' },
      json: { type: 'boolean', default: false },
      ...HELP,
    },
  },
  'create-tiny': {
    usage: `usage: sqlenv lm create-tiny --out DIR [--arch qwen3|qwen2] [--layers N] [--hidden N] [--heads N]
               [--kv-heads N] [--vocab N] [--seed S]
               writes a randomly initialised tiny model in Hugging Face layout`,
    options: {
      out: { type: 'string' },
      arch: { type: 'string', default: 'qwen3' },
      layers: { type: 'string', default: '2' },
      hidden: { type: 'string', default: '128' },
      heads: { type: 'string', default: '4' },
      'kv-heads': { type: 'string', default: '2' },
      vocab: { type: 'string', default: '1024' },
      seed: { type: 'string', default: '0' },
      ...HELP,
    },
  },
} as const satisfies Record<string, { usage: string; options: NonNullable<ParseArgsConfig['options']> }>;

type CommandName = keyof typeof COMMANDS;

const USAGE = `usage: sqlenv lm <command> [options]

${Object.values(COMMANDS)
  .map((c) => '  ' + c.usage.replace(/^usage: sqlenv lm /, '').replace(/^(\S+) /, (_, name: string) => name.padEnd(13)))
  .join('\n')}

Run \`sqlenv lm <command> --help\` for one command's options.`;

/**
 * Entry point of `sqlenv lm`; returns the exit code.
 *
 * @example
 * await run(['logprobs', '--model', './tiny', '--tokens', '1,2,3', '--json']);
 */
export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    console.error(`sqlenv lm: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  try {
    switch (command as CommandName) {
      case 'logprobs':
        return await logprobsCommand(rest);
      case 'grad':
        return await gradCommand(rest);
      case 'generate':
        return await generateCommand(rest);
      case 'create-tiny':
        return await createTinyCommand(rest);
    }
  } catch (error) {
    if (error instanceof CliUsageError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  return 2;
}

/** Parses one subcommand's flags with the shared parser; undefined means "stop with exitCode". */
function parse<C extends CommandName>(command: C, args: string[]) {
  const { usage, options } = COMMANDS[command];
  return parseCommandArgs(`lm ${command}`, usage, { args, options: options as (typeof COMMANDS)[C]['options'] });
}

/** A required string flag, or a usage error naming it. */
function need(command: CommandName, values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new CliUsageError(`sqlenv lm ${command}: --${name} is required\n\n${COMMANDS[command].usage}`);
  return v;
}

/** A numeric flag, or a usage error naming it. */
function numberFlag(command: CommandName, values: Record<string, unknown>, name: string): number {
  const v = Number(values[name]);
  if (!Number.isFinite(v)) throw new CliUsageError(`sqlenv lm ${command}: --${name} must be a number, got ${String(values[name])}\n\n${COMMANDS[command].usage}`);
  return v;
}

async function logprobsCommand(argv: string[]): Promise<number> {
  const parsed = parse('logprobs', argv);
  if (!parsed.ok) return parsed.exitCode;
  const { values } = parsed.args;
  const modelDir = need('logprobs', values, 'model');
  const tokens = parseTokens('logprobs', need('logprobs', values, 'tokens'));
  const model = await loadModel(modelDir);
  checkVocabulary('logprobs', tokens, model.config.vocabSize);
  const policy = await Policy.create(model, await policyOptions(model, values.adapter));
  try {
    const [logprobs] = await policy.logprobs([tokens]);
    // One line per scored token: token 0 has no context (its entry is 0) and is not printed.
    const list = Array.from(logprobs!).slice(1);
    console.log(values.json ? JSON.stringify({ logprobs: list }) : list.join('\n'));
  } finally {
    await policy.close();
  }
  return 0;
}

async function gradCommand(argv: string[]): Promise<number> {
  const parsed = parse('grad', argv);
  if (!parsed.ok) return parsed.exitCode;
  const { values } = parsed.args;
  const modelDir = need('grad', values, 'model');
  const tokens = parseTokens('grad', need('grad', values, 'tokens'));
  const out = need('grad', values, 'out');
  const model = await loadModel(modelDir);
  checkVocabulary('grad', tokens, model.config.vocabSize);
  const policy = await Policy.create(model, { train: 'full' });
  try {
    // Weight −1 on every scored token: the objective is −Σ log p, the negative log-likelihood itself.
    const { gradients, objective: nll } = await policy.backward([tokens], [new Array<number>(tokens.length).fill(-1)]);
    await writeSafetensors(out, gradients, { metadata: { format: 'pt', objective: 'negative log-likelihood', value: String(nll) } });
    console.log(`wrote ${gradients.size} gradients to ${out} (negative log-likelihood ${nll.toFixed(6)})`);
  } finally {
    await policy.close();
  }
  return 0;
}

async function generateCommand(argv: string[]): Promise<number> {
  const parsed = parse('generate', argv);
  if (!parsed.ok) return parsed.exitCode;
  const { values } = parsed.args;
  const modelDir = need('generate', values, 'model');
  const text = need('generate', values, 'prompt');
  const sampling = {
    maxTokens: numberFlag('generate', values, 'max-tokens'),
    temperature: numberFlag('generate', values, 'temperature'),
    seed: numberFlag('generate', values, 'seed'),
    ...(values['top-p'] !== undefined ? { topP: numberFlag('generate', values, 'top-p') } : {}),
    ...(values['top-k'] !== undefined ? { topK: numberFlag('generate', values, 'top-k') } : {}),
  };
  const model = await loadModel(modelDir);
  const prompt = values.chat ? model.tokenizer.applyChatTemplate([{ role: 'user', content: text }], { addGenerationPrompt: true }) : text;
  const policy = await Policy.create(model, await policyOptions(model, values.adapter));
  try {
    const [g] = await policy.generate([prompt], sampling);
    console.log(values.json ? JSON.stringify({ text: g!.text, token_ids: g!.tokenIds, logprobs: g!.logprobs, finish_reason: g!.finishReason }) : g!.text);
  } finally {
    await policy.close();
  }
  return 0;
}

async function createTinyCommand(argv: string[]): Promise<number> {
  const parsed = parse('create-tiny', argv);
  if (!parsed.ok) return parsed.exitCode;
  const { values } = parsed.args;
  const out = need('create-tiny', values, 'out');
  const arch = values.arch;
  if (arch !== 'qwen2' && arch !== 'qwen3') throw new CliUsageError(`sqlenv lm create-tiny: --arch must be qwen2 or qwen3, got ${arch}\n\n${COMMANDS['create-tiny'].usage}`);
  const config = await createTinyModel(out, {
    arch,
    layers: numberFlag('create-tiny', values, 'layers'),
    hidden: numberFlag('create-tiny', values, 'hidden'),
    heads: numberFlag('create-tiny', values, 'heads'),
    kvHeads: numberFlag('create-tiny', values, 'kv-heads'),
    vocabSize: numberFlag('create-tiny', values, 'vocab'),
    seed: numberFlag('create-tiny', values, 'seed'),
  });
  console.log(`wrote a ${config.arch} model (${config.numLayers} layers, hidden ${config.hiddenSize}, vocab ${config.vocabSize}) to ${out}`);
  return 0;
}

/** A command-line mistake: printed without a stack trace, exit code 2. */

function parseTokens(command: CommandName, text: string): number[] {
  const tokens = text.split(',').map((t) => Number(t.trim()));
  if (tokens.length < 2 || tokens.some((t) => !Number.isInteger(t) || t < 0)) {
    throw new CliUsageError(`sqlenv lm ${command}: --tokens must be at least two comma-separated token ids, got "${text}"`);
  }
  return tokens;
}

/** Token ids must index the model's embedding table. */
function checkVocabulary(command: string, tokens: readonly number[], vocabSize: number): void {
  const bad = tokens.filter((t) => t >= vocabSize);
  if (bad.length > 0) {
    throw new CliUsageError(`sqlenv lm ${command}: token id${bad.length > 1 ? 's' : ''} ${bad.slice(0, 5).join(', ')} outside the model's vocabulary (ids 0..${vocabSize - 1}); tokenize text with the model's own tokenizer`);
  }
}

async function policyOptions(model: LanguageModel, adapterDir: string | undefined): Promise<{ train: 'none'; adapter?: LoraAdapter }> {
  return adapterDir ? { train: 'none', adapter: await LoraAdapter.load(adapterDir, model.config) } : { train: 'none' };
}
