/**
 * The generation strategies on their own: where tokens are drawn (host or device) and how a
 * guide reaches each row.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { GRAPH_IO } from '../../src/lm/graph/graphs.js';
import { onnxTensor } from '../../src/lm/graph/onnx.js';
import { SAMPLING_IO } from '../../src/lm/graph/sampling-head.js';
import { RowGuidance } from '../../src/lm/compute/row-guidance.js';
import { TokenSampler } from '../../src/lm/compute/sampling.js';
import { DeviceSampling, HostSampling } from '../../src/lm/compute/token-draws.js';
import { useTinyModel } from './tiny-model-fixture.js';

const tinyModel = useTinyModel({ arch: 'qwen3', layers: 1, hidden: 16, heads: 2, kvHeads: 1, vocabSize: 300, seed: 3, initStd: 0.3 });

describe('DeviceSampling', () => {
  it('feeds one uniform number per unfinished row, in row order, from the seed', () => {
    const feeds = new DeviceSampling(0.5, new Rng(11), 3).feeds((b) => b === 1);
    const reference = new Rng(11);
    const expected = [reference.float(), 0, reference.float()];
    expect([...(feeds[SAMPLING_IO.uniform]!.data as Float32Array)]).toEqual([...new Float32Array(expected)]);
    expect([...(feeds[SAMPLING_IO.inverseTemperature]!.data as Float32Array)]).toEqual([2]);
  });

  it('draws no randomness when greedy and reads the greedy outputs', () => {
    const rng = new Rng(5);
    const draws = new DeviceSampling(0, rng, 2);
    expect([...(draws.feeds(() => false)[SAMPLING_IO.uniform]!.data as Float32Array)]).toEqual([0, 0]);
    expect(rng.float()).toBe(new Rng(5).float());
    const drawn = draws.read({
      [SAMPLING_IO.greedyToken]: onnxTensor('int64', [2], BigInt64Array.from([7n, 9n])),
      [SAMPLING_IO.greedyLogprob]: onnxTensor('float32', [2], new Float32Array([-0.5, -1.5])),
    });
    expect(draws.draw(drawn, 1)).toEqual({ token: 9, logprob: -1.5 });
  });
});

describe('HostSampling', () => {
  it("draws each row from its own slice of the logits, as the sampler does with the row alone", () => {
    const vocab = 4;
    const logits = new Float32Array([0, 5, 0, 0, 0, 0, 0, 5]);
    const draws = new HostSampling(new TokenSampler(vocab), { temperature: 0 }, new Rng(0));
    const drawn = draws.read({ [GRAPH_IO.logits]: onnxTensor('float32', [2, 1, vocab], logits) });
    expect(draws.draw(drawn, 0, 2).token).toBe(1);
    expect(draws.draw(drawn, 1, 2).token).toBe(3);
    expect(draws.feeds()).toEqual({});
  });

  it("applies each row's own guide, which reads the text the row generated so far; a row without one is not nudged", () => {
    const tokenizer = tinyModel().tokenizer;
    const texts = tokenizer.tokenTexts();
    const favoured = texts.findIndex((t) => t.length > 0);
    const rows = [{ tokens: [] as number[] }, { tokens: [] as number[] }];
    const seen: string[] = [];
    const guidance = new RowGuidance([(generated) => (seen.push(generated), { bias: 100, favours: (t) => t === texts[favoured] }), undefined], tokenizer, rows);
    const draws = new HostSampling(new TokenSampler(texts.length), { temperature: 0 }, new Rng(0), guidance);
    const other = (favoured + 1) % texts.length;
    const logits = new Float32Array(2 * texts.length);
    logits[other] = 1;
    logits[texts.length + other] = 1;
    expect(draws.draw(logits, 0, 2).token).toBe(favoured);
    expect(draws.draw(logits, 1, 2).token).toBe(other);
    rows[0]!.tokens.push(favoured);
    draws.draw(logits, 0, 2);
    expect(seen).toEqual(['', tokenizer.decode([favoured])]);
  });
});
