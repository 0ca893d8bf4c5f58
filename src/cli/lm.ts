/**
 * `sqlenv lm <logprobs|grad|generate|create-tiny>`: language-model tools on a Hugging Face
 * model directory (see docs/lm.md).
 */
import { parseArgs } from 'node:util';
import { LoraAdapter, Policy, createTinyModel, loadModel, writeSafetensors, type LanguageModel } from '../lm/index.js';

const USAGE = `usage: sqlenv lm <command> [options]

  logprobs     --model DIR --tokens 1,2,3 [--adapter DIR] [--json]
               log p(token[t+1] | tokens[0..t]) for each t
  grad         --model DIR --tokens 1,2,3 --out FILE.safetensors
               gradient of −Σ logprobs for every parameter, under the checkpoint's names
  generate     --model DIR --prompt TEXT [--chat] [--max-tokens N] [--temperature T]
               [--top-p P] [--top-k K] [--seed S] [--adapter DIR] [--json]
               samples a completion (--chat wraps the prompt in the chat template)
  create-tiny  --out DIR [--arch qwen3|qwen2] [--layers N] [--hidden N] [--heads N]
               [--kv-heads N] [--vocab N] [--seed S]
               writes a randomly initialised tiny model in Hugging Face layout`;

/**
 * Entry point of `sqlenv lm`; returns the exit code.
 *
 * @example
 * await run(['logprobs', '--model', './tiny', '--tokens', '1,2,3', '--json']);
 */
export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      model: { type: 'string' },
      tokens: { type: 'string' },
      adapter: { type: 'string' },
      out: { type: 'string' },
      prompt: { type: 'string' },
      chat: { type: 'boolean', default: false },
      'max-tokens': { type: 'string', default: '128' },
      temperature: { type: 'string', default: '1' },
      'top-p': { type: 'string' },
      'top-k': { type: 'string' },
      seed: { type: 'string', default: '0' },
      json: { type: 'boolean', default: false },
      arch: { type: 'string', default: 'qwen3' },
      layers: { type: 'string', default: '2' },
      hidden: { type: 'string', default: '128' },
      heads: { type: 'string', default: '4' },
      'kv-heads': { type: 'string', default: '2' },
      vocab: { type: 'string', default: '1024' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (!command || values.help || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const need = (name: 'model' | 'tokens' | 'out' | 'prompt'): string => {
    const v = values[name];
    if (!v) throw new CliUsageError(`sqlenv lm ${command}: --${name} is required\n\n${USAGE}`);
    return v;
  };
  const number = (name: keyof typeof values): number => {
    const v = Number(values[name]);
    if (!Number.isFinite(v)) throw new CliUsageError(`sqlenv lm ${command}: --${String(name)} must be a number, got ${String(values[name])}`);
    return v;
  };
  try {
    switch (command) {
      case 'logprobs': {
        const model = await loadModel(need('model'));
        const tokens = parseTokens(need('tokens'));
        const policy = await Policy.create(model, await policyOptions(model, values.adapter));
        try {
          const [logprobs] = await policy.logprobs([tokens]);
          const list = Array.from(logprobs!);
          console.log(values.json ? JSON.stringify({ logprobs: list }) : list.join('\n'));
        } finally {
          await policy.close();
        }
        return 0;
      }
      case 'grad': {
        const model = await loadModel(need('model'));
        const tokens = parseTokens(need('tokens'));
        const out = need('out');
        const policy = await Policy.create(model, { train: 'full' });
        try {
          const { gradients, objective } = await policy.backward([tokens], [new Array<number>(tokens.length - 1).fill(-1)]);
          await writeSafetensors(out, gradients, { metadata: { format: 'pt', objective: 'negative log-likelihood', value: String(-objective) } });
          console.log(`wrote ${gradients.size} gradients to ${out} (negative log-likelihood ${(-objective).toFixed(6)})`);
        } finally {
          await policy.close();
        }
        return 0;
      }
      case 'generate': {
        const model = await loadModel(need('model'));
        const text = need('prompt');
        const prompt = values.chat ? model.tokenizer.applyChatTemplate([{ role: 'user', content: text }], { addGenerationPrompt: true }) : text;
        const policy = await Policy.create(model, await policyOptions(model, values.adapter));
        try {
          const [g] = await policy.generate([prompt], {
            maxTokens: number('max-tokens'),
            temperature: number('temperature'),
            seed: number('seed'),
            ...(values['top-p'] !== undefined ? { topP: number('top-p') } : {}),
            ...(values['top-k'] !== undefined ? { topK: number('top-k') } : {}),
          });
          console.log(values.json ? JSON.stringify({ text: g!.text, token_ids: g!.tokenIds, logprobs: g!.logprobs, finish_reason: g!.finishReason }) : g!.text);
        } finally {
          await policy.close();
        }
        return 0;
      }
      case 'create-tiny': {
        const out = need('out');
        const arch = values.arch;
        if (arch !== 'qwen2' && arch !== 'qwen3') throw new CliUsageError(`--arch must be qwen2 or qwen3, got ${arch}`);
        const config = await createTinyModel(out, {
          arch,
          layers: number('layers'),
          hidden: number('hidden'),
          heads: number('heads'),
          kvHeads: number('kv-heads'),
          vocabSize: number('vocab'),
          seed: number('seed'),
        });
        console.log(`wrote a ${config.arch} model (${config.numLayers} layers, hidden ${config.hiddenSize}, vocab ${config.vocabSize}) to ${out}`);
        return 0;
      }
      default:
        console.error(`sqlenv lm: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof CliUsageError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
}

/** A command-line mistake: printed without a stack trace, exit code 2. */
class CliUsageError extends Error {}

function parseTokens(text: string): number[] {
  const tokens = text.split(',').map((t) => Number(t.trim()));
  if (tokens.length < 2 || tokens.some((t) => !Number.isInteger(t) || t < 0)) {
    throw new CliUsageError(`--tokens must be at least two comma-separated token ids, got "${text}"`);
  }
  return tokens;
}

async function policyOptions(model: LanguageModel, adapterDir: string | undefined): Promise<{ train: 'none'; adapter?: LoraAdapter }> {
  return adapterDir ? { train: 'none', adapter: await LoraAdapter.load(adapterDir, model.config) } : { train: 'none' };
}
