/**
 * The strings and conversations the transformers parity test renders both ways: hand-picked
 * hard cases plus a seeded random mix of pieces (unicode of several scripts and normal forms,
 * whitespace runs, digits, contractions, special and tool tokens, code and SQL).
 */
import type { ChatMessage, ChatTemplateOptions } from '../../src/lm/index.js';

const HAND_PICKED: readonly string[] = [
  'Hello, world!',
  '  leading spaces',
  'trailing spaces   ',
  'tabs\tand\nnewlines\n\n\nmany',
  'SELECT name, COUNT(*) FROM singer WHERE age > 30 GROUP BY name ORDER BY 2 DESC LIMIT 5;',
  "SELECT * FROM \"table\" WHERE x = 'O''Brien' AND y <> 3.5e-2;",
  'def f(x):\n    return x**2  # comment\n',
  '日本語のテキスト、中文文本。한국어 텍스트',
  'emoji 🎉👍🏽 family 👨‍👩‍👧 flags 🇫🇷',
  'Zoë café naïve', // precomposed
  'Zoe\u0308 cafe\u0301', // combining marks (NFC-normalising tokenizers differ here)
  'numbers 1234567890 3.14159 -42 1e10 ١٢٣ ½',
  "I'm you're they've we'll she'd IT'S don'T",
  'ΑΒΓ абв ǅ ß İ ﬁ Ⅻ ｆｕｌｌｗｉｄｔｈ',
  '\u00a0nbsp\u2003em\u3000ideographic\u200bzero-width\ufeffbom',
  'x\r\ny\r\n\r\n',
  ' ',
  '\n',
  '   \n\n   \t  x',
  '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n',
  'a<|endoftext|>b<|im_end|>',
  '<|IM_START|> not special, <|im_start|> special',
  '<tool_call>\n{"name": "query", "arguments": {"sql": "SELECT 1"}}\n</tool_call>',
  '<think>\nhmm\n</think>\n\nok',
  '<tool_response>\n[[6]]\n</tool_response>',
];

const PIECES: readonly string[] = [
  ' ', '  ', '\t', '\n', '\n\n', '\r\n', '\u00a0', '\u3000', 'a', 'Z', 'é', 'e\u0301', 'ß', 'İ', 'ﬁ',
  '日本', '한국어', 'العربية', 'हिन्दी', '🎉', '👍🏽', '👨‍👩‍👧', '0', '12', '345', '١٢٣', '½', "'s", "'LL",
  "'t", '<|im_start|>', '<|im_end|>', '<|endoftext|>', '<tool_call>', '</tool_call>', '<think>', '</think>',
  'SELECT', ' FROM', ' WHERE', '(*)', ';', '"', "''", '\\n', '{', '}', '[', '::', '->', '!=', '<=', '#',
  '//', '\u200b', '\ufeff', 'ǅ', 'Ω', 'Å', 'A\u030a', '😀', '~~~', '...', '—', '“quoted”', 'name', '_id',
];

/** A small deterministic generator (mulberry32), so every run renders the same corpus. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hand-picked strings followed by `randomCount` seeded random mixes of {@link PIECES}. */
export function parityStrings(randomCount = 300, seed = 20): string[] {
  const next = rng(seed);
  const random = Array.from({ length: randomCount }, () => {
    const n = 1 + Math.floor(next() * 12);
    let s = '';
    for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)]!;
    return s;
  });
  return [...HAND_PICKED, ...random];
}

/** A conversation and the options it is rendered with (the same on both sides). */
export interface ParityChat {
  readonly label: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: ChatTemplateOptions['tools'];
  readonly addGenerationPrompt: boolean;
  readonly enableThinking?: boolean;
}

const QUERY_TOOL = {
  type: 'function' as const,
  function: {
    name: 'query',
    description: 'Run one read-only SQL query <b>&</b> ü',
    parameters: {
      type: 'object',
      properties: {
        sql: { type: 'string', description: 'the query' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      },
      required: ['sql'],
      additionalProperties: false,
    },
  },
};
const ANSWER_TOOL = {
  type: 'function' as const,
  function: { name: 'answer', description: 'Submit the final answer.', parameters: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } },
};

/** Conversations covering system prompts, tools, tool calls and responses, multi-turn and Qwen3's thinking flags. */
export const PARITY_CHATS: readonly ParityChat[] = [
  { label: 'one user turn, generation prompt', messages: [{ role: 'user', content: 'Hi' }], addGenerationPrompt: true },
  { label: 'one user turn, no generation prompt', messages: [{ role: 'user', content: 'Hi' }], addGenerationPrompt: false },
  { label: 'enable_thinking false', messages: [{ role: 'user', content: 'Hi' }], addGenerationPrompt: true, enableThinking: false },
  { label: 'enable_thinking true', messages: [{ role: 'user', content: 'Hi' }], addGenerationPrompt: true, enableThinking: true },
  {
    label: 'system prompt with markup and unicode',
    messages: [
      { role: 'system', content: 'Be brief. ü 日本 "q" <b>&</b>' },
      { role: 'user', content: 'How many singers?' },
    ],
    addGenerationPrompt: true,
  },
  {
    label: 'multi-turn with thinking in past and last assistant turns',
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: '<think>\nold thought\n</think>\n\nHello!' },
      { role: 'user', content: 'Again' },
      { role: 'assistant', content: '<think>\nnew thought\n</think>\n\nSure.' },
    ],
    addGenerationPrompt: false,
  },
  {
    label: 'reasoning_content fields',
    messages: [
      { role: 'user', content: 'Q' },
      { role: 'assistant', content: 'A', reasoning_content: 'thought' },
      { role: 'user', content: 'Q2' },
      { role: 'assistant', content: 'A2', reasoning_content: '\nthought2\n' },
    ],
    addGenerationPrompt: false,
  },
  {
    label: 'tools, a tool call with nested arguments, a tool response, generation prompt',
    messages: [
      { role: 'system', content: 'You answer questions about a SQLite database.' },
      { role: 'user', content: 'How many singers are older than 30?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            type: 'function',
            function: { name: 'query', arguments: { sql: "SELECT count(*) FROM singer WHERE age > 30 AND name <> 'O''Hara'", limit: 5, flag: true, none: null, list: [1, 2, 3], nested: { k: 'ü<>&' } } },
          },
        ],
      },
      { role: 'tool', content: '[[6]]' },
    ],
    tools: [QUERY_TOOL, ANSWER_TOOL],
    addGenerationPrompt: true,
  },
  {
    label: 'parallel tool calls (object and string arguments), two tool responses, final answer',
    messages: [
      { role: 'user', content: 'Q' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { type: 'function', function: { name: 'query', arguments: { sql: 'SELECT 1' } } },
          { type: 'function', function: { name: 'query', arguments: '{"sql": "SELECT \'ü\'"}' } },
        ],
      },
      { role: 'tool', content: '[[1]]' },
      { role: 'tool', content: '[["ü"]]' },
      { role: 'assistant', content: '<think>\nreasoning here\n</think>\n\nThe answer is 1.' },
    ],
    tools: [QUERY_TOOL],
    addGenerationPrompt: false,
  },
  {
    label: 'agent loop: two call/response rounds, thinking off',
    messages: [
      { role: 'user', content: 'Which singer is oldest?' },
      { role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: 'query', arguments: { sql: 'SELECT max(age) FROM singer' } } }] },
      { role: 'tool', content: '[[52]]' },
      { role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: 'answer', arguments: { value: '52' } } }] },
      { role: 'tool', content: 'correct' },
    ],
    tools: [QUERY_TOOL, ANSWER_TOOL],
    addGenerationPrompt: true,
    enableThinking: false,
  },
  {
    label: 'tools without a system prompt; a system turn that is not first',
    messages: [
      { role: 'user', content: 'Q' },
      { role: 'system', content: 'mid-conversation system note' },
      { role: 'assistant', content: '\n\nA with leading newlines' },
    ],
    tools: [ANSWER_TOOL],
    addGenerationPrompt: false,
  },
  {
    label: 'whitespace-heavy contents',
    messages: [
      { role: 'user', content: '  spaces  \n\n' },
      { role: 'assistant', content: '\tx\r\n' },
      { role: 'user', content: '<tool_response>\nlooks like a tool response\n</tool_response>' },
    ],
    addGenerationPrompt: true,
  },
];
