import { beforeAll, describe, expect, it } from 'vitest';
import { createTinyModel } from '../../src/lm/tiny/create.js';
import { Tokenizer } from '../../src/lm/tokenizer/tokenizer.js';
import { TemplateChatCodec } from '../../src/train/policy/template-chat-codec.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-codec-');

let dir: string;
let tokenizer: Tokenizer;
beforeAll(async () => {
  dir = tempDir();
  await createTinyModel(dir, { layers: 1, hidden: 32, heads: 2, kvHeads: 1, vocabSize: 400 });
  tokenizer = await Tokenizer.fromDir(dir);
}, 60_000);

describe('TemplateChatCodec', () => {
  it('builds a multi-turn episode piece by piece exactly as the chat template renders it whole', () => {
    const codec = new TemplateChatCodec(tokenizer, '<|im_end|>');
    const tools = [{ name: 'describe', description: 'Describe a table', parameters: { type: 'object', properties: { table_name: { type: 'string' } } } }];
    const start = [{ role: 'system' as const, content: 'Answer with tools.' }, { role: 'user' as const, content: 'How many singers?' }];
    const call = '<tool_call>\n{"name": "describe", "arguments": {"table_name": "singer"}}\n</tool_call>';
    const pieces = [...codec.encodeStart(start, tools), ...codec.encodeAssistantTurn(call), ...codec.encodeToolResponses(['TABLE singer (6 rows)'])];
    const whole = tokenizer.applyChatTemplate(
      [...start, { role: 'assistant', content: call }, { role: 'tool', content: 'TABLE singer (6 rows)' }],
      { tools, addGenerationPrompt: true, enableThinking: false },
    );
    expect(tokenizer.decode(pieces)).toBe(whole);
  });

  it('closes a turn cut by the token limit before the tool response', () => {
    const codec = new TemplateChatCodec(tokenizer, '<|im_end|>');
    expect(tokenizer.decode(codec.encodeToolResponses(['x'], false)).startsWith('<|im_end|>')).toBe(true);
    expect(tokenizer.decode(codec.encodeToolResponses(['x'], true)).startsWith('<|im_end|>')).toBe(false);
    expect(codec.decode([])).toBe('');
  });
});
