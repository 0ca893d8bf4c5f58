import { describe, expect, it } from 'vitest';
import { CHAT_ADDED_TOKENS, FALLBACK_CHAT_TEMPLATE, Tokenizer, toTokenizerConfig, toTokenizerJson, trainByteLevelBpe } from '../../src/lm/index.js';
import { preTokenize, toByteLevel } from '../../src/lm/tokenizer/byte-level.js';
import { withRustWhitespace } from '../../src/lm/tokenizer/pre-tokenizer-json.js';
import { rustWhitespacePattern } from '../../src/lm/tokenizer/rust-whitespace.js';

const corpus = Array.from({ length: 60 }, (_, i) => `SELECT name, age FROM singer WHERE age > ${i} ORDER BY name;`).concat([
  'How many singers are there in total?',
  'Zoë wrote 日本語 and emoji 🎉 too.',
]);

describe('byte-level BPE trainer', () => {
  const bpe = trainByteLevelBpe(corpus, { vocabSize: 320, addedTokens: CHAT_ADDED_TOKENS });

  it('starts from 256 byte symbols, learns frequent merges first, appends added tokens', () => {
    expect(bpe.vocab.get(toByteLevel('A'))).toBe(65);
    expect(bpe.vocab.size).toBeLessThanOrEqual(320 - CHAT_ADDED_TOKENS.length);
    expect(bpe.merges.length).toBe(bpe.vocab.size - 256);
    // "Ġname" and "ĠFROM" occur on every line: they must be whole tokens.
    expect(bpe.vocab.has(toByteLevel(' name'))).toBe(true);
    expect(bpe.vocab.has(toByteLevel(' FROM'))).toBe(true);
    expect(bpe.addedTokens.map((t) => t.id)).toEqual(CHAT_ADDED_TOKENS.map((_, i) => bpe.vocab.size + i));
  });

  it('is deterministic', () => {
    const again = trainByteLevelBpe(corpus, { vocabSize: 320, addedTokens: CHAT_ADDED_TOKENS });
    expect(again.merges).toEqual(bpe.merges);
  });

  it('pre-tokenizes like the GPT-2 ByteLevel pattern', () => {
    expect(preTokenize("SELECT x  FROM t's")).toEqual(['SELECT', ' x', ' ', ' FROM', ' t', "'s"]);
  });

  it('writes a tokenizer.json that @huggingface/tokenizers loads and round-trips', () => {
    const tok = Tokenizer.fromJson(toTokenizerJson(bpe), { eos_token: '<|im_end|>', pad_token: '<|endoftext|>' });
    const text = '<|im_start|>user\nSELECT  name FROM singer;\n\n Zoë 🎉<tool_call>{"name": "q"}</tool_call><|im_end|>';
    const ids = tok.encode(text);
    expect(tok.decode(ids)).toBe(text);
    expect(ids[0]).toBe(tok.tokenToId('<|im_start|>'));
    expect(ids).toContain(tok.tokenToId('<tool_call>'));
    // The trained merge for " FROM" is used (one token, not five bytes).
    expect(tok.encode(' FROM')).toEqual([bpe.vocab.get(toByteLevel(' FROM'))]);
    expect(tok.decode(ids, { skipSpecialTokens: true })).toBe('user\nSELECT  name FROM singer;\n\n Zoë 🎉<tool_call>{"name": "q"}</tool_call>');
    expect(tok.stopTokenIds).toEqual(expect.arrayContaining([tok.tokenToId('<|im_end|>'), tok.tokenToId('<|endoftext|>')]));
    expect(tok.padTokenId).toBe(tok.tokenToId('<|endoftext|>'));
    expect(tok.vocabSize).toBe(bpe.vocab.size + CHAT_ADDED_TOKENS.length);
  });

  it('tokenTexts: every id decoded alone, special tokens empty, built once', () => {
    const tok = Tokenizer.fromJson(toTokenizerJson(bpe), { eos_token: '<|im_end|>' });
    const texts = tok.tokenTexts();
    expect(texts).toHaveLength(tok.vocabSize);
    expect(texts[tok.encode(' FROM')[0]!]).toBe(' FROM');
    expect(texts[tok.tokenToId('<|im_end|>')!]).toBe('');
    expect(tok.tokenTexts()).toBe(texts);
  });

  it('decodes an empty id list as the empty string (a completion that stopped at its first token)', () => {
    const tok = Tokenizer.fromJson(toTokenizerJson(bpe), { eos_token: '<|im_end|>' });
    expect(tok.decode([])).toBe('');
    expect(tok.decode([], { skipSpecialTokens: true })).toBe('');
  });
});

describe('chat templates', () => {
  const tok = Tokenizer.fromJson(toTokenizerJson(trainByteLevelBpe(corpus, { vocabSize: 300, addedTokens: CHAT_ADDED_TOKENS })), {
    chat_template: FALLBACK_CHAT_TEMPLATE,
    eos_token: '<|im_end|>',
  });
  const tools = [{ name: 'query', description: 'Run SQL', parameters: { type: 'object', properties: { sql: { type: 'string' } } } }];

  it('renders tools, tool calls and tool responses in ChatML/Hermes form', () => {
    const text = tok.applyChatTemplate(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'How many singers?' },
        { role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } } }] },
        { role: 'tool', content: '6' },
      ],
      { tools, addGenerationPrompt: true },
    );
    expect(text.startsWith('<|im_start|>system\nBe brief.\n\n')).toBe(true);
    expect(text).toContain('<tools>\n{"type": "function", "function": {"name": "query", "description": "Run SQL"');
    expect(text).toContain('<|im_start|>user\nHow many singers?<|im_end|>\n');
    expect(text).toContain('<|im_start|>assistant\n<tool_call>\n{"name": "query", "arguments": {"sql": "SELECT count(*) FROM singer"}}\n</tool_call><|im_end|>\n');
    expect(text).toContain('<|im_start|>user\n<tool_response>\n6\n</tool_response><|im_end|>\n');
    expect(text.endsWith('<|im_start|>assistant\n')).toBe(true);
  });

  it('renders without tools or generation prompt', () => {
    expect(tok.applyChatTemplate([{ role: 'user', content: 'hi' }])).toBe('<|im_start|>user\nhi<|im_end|>\n');
  });

  it("uses the model's own template when it has one", () => {
    const own = Tokenizer.fromJson(toTokenizerJson(trainByteLevelBpe(corpus, { vocabSize: 300 })), {
      chat_template: '{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{% if tools %}{{ tools[0].function.name }}{% endif %}',
    });
    expect(own.hasOwnChatTemplate).toBe(true);
    expect(own.applyChatTemplate([{ role: 'user', content: 'x' }], { tools })).toBe('[user]xquery');
  });
});

describe('whitespace as the Rust tokenizers library means it', () => {
  // Expected pieces are what Python `tokenizers` 0.23 (ByteLevel, use_regex) answers.
  it('pre-tokenizes around U+FEFF and U+0085 like the Rust library', () => {
    const pieces = (s: string) => preTokenize(s).map(toByteLevel);
    expect(pieces('\ufeff—[')).toEqual(['ï»¿âĢĶ[']);
    expect(pieces('a\u0085\u0085 b')).toEqual(['a', 'ÂħÂħ', 'Ġb']);
    expect(pieces('x \ufeff\ufeff  y')).toEqual(['x', 'Ġï»¿ï»¿', 'Ġ', 'Ġy']);
    expect(pieces('tab\t\ufeff\n')).toEqual(['tab', 'ĉ', 'ï»¿', 'Ċ']);
  });

  it('rewrites \\s and \\S in and out of character classes, and nothing escaped', () => {
    const ws = rustWhitespacePattern('\\s');
    expect(ws.startsWith('[') && ws.endsWith(']')).toBe(true);
    const re = new RegExp(`^${ws}$`, 'u');
    for (const c of ['\t', '\n', ' ', '\u0085', '\u00a0', '\u2003', '\u3000']) expect(re.test(c)).toBe(true);
    for (const c of ['\ufeff', '\u200b', 'x']) expect(re.test(c)).toBe(false);
    const inClass = new RegExp(rustWhitespacePattern('^[^\\s\\p{L}]+$'), 'u');
    expect(inClass.test('\ufeff—')).toBe(true);
    expect(inClass.test('\u0085')).toBe(false);
    expect(new RegExp(rustWhitespacePattern('^\\S$'), 'u').test('\ufeff')).toBe(true);
    expect(rustWhitespacePattern('\\\\s')).toBe('\\\\s');
  });

  it('encodes a BOM followed by punctuation as the one piece transformers sees', () => {
    // Before the fix the JavaScript library cut "\ufeff" off as whitespace and this merge never applied.
    const bpe = trainByteLevelBpe(Array.from({ length: 20 }, () => 'x \ufeff—['), { vocabSize: 300 });
    const tok = Tokenizer.fromJson(toTokenizerJson(bpe));
    expect(tok.encode('\ufeff—[')).toEqual([bpe.vocab.get(toByteLevel('\ufeff—['))]);
  });

  it('rewrites Split patterns and the ByteLevel regex of a tokenizer.json without touching the input', () => {
    const json = { pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { Regex: '\\s+' }, behavior: 'Isolated', invert: false }, { type: 'ByteLevel', add_prefix_space: false, use_regex: true }] } };
    const copy = JSON.stringify(json);
    const out = withRustWhitespace(json) as { pre_tokenizer: { pretokenizers: { type: string; pattern?: { Regex: string }; pretokenizers?: { type: string; use_regex?: boolean }[] }[] } };
    expect(JSON.stringify(json)).toBe(copy);
    expect(out.pre_tokenizer.pretokenizers[0]!.pattern!.Regex).toBe(`${rustWhitespacePattern('\\s')}+`);
    const byteLevel = out.pre_tokenizer.pretokenizers[1]!;
    expect(byteLevel.type).toBe('Sequence');
    expect(byteLevel.pretokenizers!.map((p) => p.type)).toEqual(['Split', 'ByteLevel']);
    expect(byteLevel.pretokenizers![1]!.use_regex).toBe(false);
  });
});

describe('tokenizer_config.json of trained tokenizers', () => {
  it('names the class that keeps tokenizer.json as written (transformers 5 rebuilds Qwen2Tokenizer from the class)', () => {
    const bpe = trainByteLevelBpe(corpus, { vocabSize: 300, addedTokens: CHAT_ADDED_TOKENS });
    const config = toTokenizerConfig(bpe, { chatTemplate: FALLBACK_CHAT_TEMPLATE });
    expect(config['tokenizer_class']).toBe('PreTrainedTokenizerFast');
    expect(config['eos_token']).toBe('<|im_end|>');
    expect(config['chat_template']).toBe(FALLBACK_CHAT_TEMPLATE);
  });

  it('the bundled tiny model declares the same class', async () => {
    const { readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { packageRoot } = await import('../../src/base/package-root.js');
    const config = JSON.parse(await readFile(join(packageRoot(), 'models', 'tiny-sql', 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
    expect(config['tokenizer_class']).toBe('PreTrainedTokenizerFast');
  });
});
