import { describe, expect, it } from 'vitest';
import {
  CHAT_ADDED_TOKENS,
  FALLBACK_CHAT_TEMPLATE,
  Tokenizer,
  preTokenize,
  toByteLevel,
  toTokenizerJson,
  trainByteLevelBpe,
} from '../../src/lm/index.js';

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
