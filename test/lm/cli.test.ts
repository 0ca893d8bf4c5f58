import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/lm.js';
import { Policy, SafetensorsFile, floatTensor, loadModel, writeSafetensors, type FloatTensor } from '../../src/lm/index.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const dir = join(useTempDirs('lm-cli-')(), 'tiny');
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
      // The CLI prints the scored tokens 1…n−1 (the library's entry 0, token 0, has no context).
      logprobs.forEach((v, i) => expect(v).toBeCloseTo(ours![i + 1]!, 6));
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

  it('grad reports the negative log-likelihood −Σ logprobs, positive, in the message and the metadata', async () => {
    const tokens = '5,9,33,2,17,250';
    expect(await run(['logprobs', '--model', dir, '--tokens', tokens, '--json'])).toBe(0);
    const { logprobs } = JSON.parse(printed.at(-1)!) as { logprobs: number[] };
    const nll = -logprobs.reduce((a, b) => a + b, 0);
    expect(nll).toBeGreaterThan(0);
    const out = join(dir, '..', 'grad-nll.safetensors');
    expect(await run(['grad', '--model', dir, '--tokens', tokens, '--out', out])).toBe(0);
    const reported = Number(/negative log-likelihood (-?[\d.]+)/.exec(printed.at(-1)!)?.[1]);
    expect(Math.abs(reported - nll)).toBeLessThan(1e-4);
    const file = await SafetensorsFile.open(out);
    try {
      expect(file.metadata['objective']).toBe('negative log-likelihood');
      expect(Math.abs(Number(file.metadata['value']) - nll)).toBeLessThan(1e-4);
    } finally {
      await file.close();
    }
  });

  it('grad writes the gradient of the NLL: equal to the library and to a finite difference', async () => {
    const tokens = [5, 9, 33, 2, 17, 250];
    const out = join(dir, '..', 'grad-check.safetensors');
    expect(await run(['grad', '--model', dir, '--tokens', tokens.join(','), '--out', out])).toBe(0);
    const name = 'model.norm.weight';
    const file = await SafetensorsFile.open(out);
    let written: FloatTensor;
    try {
      written = await file.read(name);
    } finally {
      await file.close();
    }
    // The library's own gradient of −Σ log p on the same model and tokens.
    const policy = await Policy.create(await loadModel(dir), { train: 'full' });
    try {
      const { gradients } = await policy.backward([tokens], [new Array<number>(tokens.length).fill(-1)]);
      const lib = gradients.get(name)!;
      expect(written.shape).toEqual(lib.shape);
      written.data.forEach((v, i) => expect(Math.abs(v - lib.data[i]!)).toBeLessThan(1e-5 + 1e-4 * Math.abs(lib.data[i]!)));
    } finally {
      await policy.close();
    }
    // Central finite difference of the NLL (through `sqlenv lm logprobs`) on the largest element.
    let k = 0;
    written.data.forEach((v, i) => {
      if (Math.abs(v) > Math.abs(written.data[k]!)) k = i;
    });
    expect(Math.abs(written.data[k]!)).toBeGreaterThan(1e-3);
    const eps = 1e-2;
    const nllWith = async (delta: number): Promise<number> => {
      const copy = join(dir, '..', `tiny-fd-${delta > 0 ? 'plus' : 'minus'}`);
      cpSync(dir, copy, { recursive: true });
      const src = await SafetensorsFile.open(join(dir, 'model.safetensors'));
      const tensors = new Map<string, FloatTensor>();
      try {
        for (const n of src.names()) {
          const t = await src.read(n);
          const data = Float32Array.from(t.data);
          if (n === name) data[k] = data[k]! + delta;
          tensors.set(n, floatTensor(t.shape, data));
        }
      } finally {
        await src.close();
      }
      await writeSafetensors(join(copy, 'model.safetensors'), tensors, { metadata: { format: 'pt' } });
      expect(await run(['logprobs', '--model', copy, '--tokens', tokens.join(','), '--json'])).toBe(0);
      return -(JSON.parse(printed.at(-1)!) as { logprobs: number[] }).logprobs.reduce((a, b) => a + b, 0);
    };
    const numeric = ((await nllWith(eps)) - (await nllWith(-eps))) / (2 * eps);
    expect(Math.abs(numeric - written.data[k]!)).toBeLessThan(0.02 * Math.abs(written.data[k]!) + 2e-3);
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

  it('logprobs and grad refuse token ids outside the vocabulary with exit 2 and the valid range', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.join(' ')));
    expect(await run(['logprobs', '--model', dir, '--tokens', '5,400'])).toBe(2);
    expect(await run(['grad', '--model', dir, '--tokens', '5,9999', '--out', join(dir, '..', 'never.safetensors')])).toBe(2);
    const text = errors.join('\n');
    expect(text).toContain('token id 400 outside the model\'s vocabulary (ids 0..399)');
    expect(text).toContain('token id 9999');
    expect(text).not.toMatch(/RangeError|\n\s+at /);
  });

  it('every subcommand rejects an unknown flag with exit 2 and its own usage, no stack trace', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.join(' ')));
    for (const command of ['logprobs', 'grad', 'generate', 'create-tiny']) {
      errors.length = 0;
      expect(await run([command, '--bogus'])).toBe(2);
      const text = errors.join('\n');
      expect(text).toContain(`sqlenv lm ${command}: Unknown option '--bogus'`);
      expect(text).toContain(`usage: sqlenv lm ${command} `);
      expect(text).not.toMatch(/TypeError|\n\s+at /);
    }
    errors.length = 0;
    expect(await run(['logprobs', '--model', dir, '--tokens', '1,2', 'stray'])).toBe(2);
    expect(errors.join('\n')).toContain('usage: sqlenv lm logprobs');
    // A flag of another subcommand is unknown here too.
    expect(await run(['logprobs', '--model', dir, '--tokens', '1,2', '--out', 'x'])).toBe(2);
    expect(await run(['create-tiny', '--out', join(dir, '..', 'never'), '--arch', 'gpt2'])).toBe(2);
    expect(await run(['generate', '--model', dir, '--prompt', 'x', '--max-tokens', 'many'])).toBe(2);
    expect(await run(['grad', '--help'])).toBe(0);
    expect(printed.at(-1)).toContain('usage: sqlenv lm grad');
  });
});
