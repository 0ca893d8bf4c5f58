import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/lm.js';
import { Policy, SafetensorsFile, loadModel } from '../../src/lm/index.js';

const dir = join(mkdtempSync(join(tmpdir(), 'lm-cli-')), 'tiny');
let printed: string[] = [];

beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')));
  expect(await run(['create-tiny', '--out', dir, '--layers', '1', '--hidden', '32', '--heads', '2', '--kv-heads', '1', '--vocab', '400', '--seed', '3'])).toBe(0);
});
afterEach(() => {
  printed = [];
});

describe('sqlenv lm', () => {
  it('logprobs --json prints one log-prob per scored token, equal to the library', async () => {
    expect(await run(['logprobs', '--model', dir, '--tokens', '5,9,33,2', '--json'])).toBe(0);
    const { logprobs } = JSON.parse(printed.at(-1)!) as { logprobs: number[] };
    expect(logprobs).toHaveLength(3);
    const model = await loadModel(dir);
    const policy = await Policy.create(model, { train: 'none' });
    try {
      const [ours] = await policy.logprobs([[5, 9, 33, 2]]);
      logprobs.forEach((v, i) => expect(v).toBeCloseTo(ours![i]!, 6));
    } finally {
      await policy.close();
    }
  });

  it('grad writes every parameter gradient under the checkpoint names', async () => {
    const out = join(dir, '..', 'grad.safetensors');
    expect(await run(['grad', '--model', dir, '--tokens', '5,9,33,2', '--out', out])).toBe(0);
    const grads = await SafetensorsFile.open(out);
    const weights = await SafetensorsFile.open(join(dir, 'model.safetensors'));
    try {
      expect(grads.names().sort()).toEqual(weights.names().sort());
      expect(grads.entry('model.embed_tokens.weight')?.shape).toEqual(weights.entry('model.embed_tokens.weight')?.shape);
    } finally {
      await grads.close();
      await weights.close();
    }
  });

  it('generate samples reproducibly and reports usage errors with exit code 2', async () => {
    expect(await run(['generate', '--model', dir, '--prompt', 'SELECT', '--max-tokens', '5', '--seed', '1', '--json'])).toBe(0);
    expect(await run(['generate', '--model', dir, '--prompt', 'SELECT', '--max-tokens', '5', '--seed', '1', '--json', '--chat'])).toBe(0);
    expect(await run(['generate', '--model', dir, '--prompt', 'SELECT', '--max-tokens', '5', '--seed', '1', '--json'])).toBe(0);
    const [a, , c] = printed.map((l) => JSON.parse(l) as { token_ids: number[]; logprobs: number[] });
    expect(a!.token_ids.length).toBeGreaterThan(0);
    expect(a!.token_ids).toEqual(c!.token_ids);
    expect(a!.logprobs).toHaveLength(a!.token_ids.length);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await run(['logprobs', '--tokens', '1,2'])).toBe(2);
    expect(await run(['logprobs', '--model', dir, '--tokens', '1'])).toBe(2);
    expect(await run(['nonsense'])).toBe(2);
  });
});
