import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { checkGradients } from './gradcheck.js';
import * as o from './onnx-api.js';

describe('gradient rules: matmul, reductions, shape ops, indexing, softmax (float64)', () => {
  it('MatMul batched × shared weight', () => checkGradients([{ shape: [2, 3, 4] }, { shape: [4, 5] }], (_, [a, b]) => o.matmul(a!, b!)));
  it('MatMul with broadcast batch dims', () => checkGradients([{ shape: [2, 1, 3, 4] }, { shape: [3, 4, 2] }], (_, [a, b]) => o.matmul(a!, b!)));
  for (const [ta, tb] of [[false, false], [false, true], [true, false], [true, true]] as const) {
    it(`Gemm transA=${ta} transB=${tb} alpha/beta, C broadcast`, () =>
      checkGradients([{ shape: ta ? [4, 3] : [3, 4] }, { shape: tb ? [2, 4] : [4, 2] }, { shape: [2] }], (_, [a, b, c]) =>
        o.gemm(a!, b!, c!, { transA: ta, transB: tb, alpha: 0.7, beta: 1.3 })));
  }
  it('ReduceSum (keepdims and not)', () =>
    checkGradients([{ shape: [2, 3, 4] }], (_, [a]) => o.add(o.reduceSum(a!, [1]), o.reduceSum(o.reduceSum(a!, [0, 2], true), [1]))));
  it('ReduceMean', () => checkGradients([{ shape: [2, 3, 4] }], (_, [a]) => o.reduceMean(a!, [-1], true)));
  it('ReduceMax (unique maxima)', () => checkGradients([{ shape: [2, 3] }], (_, [a]) => o.reduceMax(a!, [1])));
  it('Reshape / Transpose', () => checkGradients([{ shape: [2, 3, 4] }], (_, [a]) => o.transpose(o.reshape(a!, [0, 4, -1]), [2, 0, 1])));
  it('Unsqueeze / Squeeze', () => checkGradients([{ shape: [2, 3] }], (_, [a]) => o.mul(o.squeeze(o.unsqueeze(a!, [0, 2]), [0]), 2)));
  it('Concat', () => checkGradients([{ shape: [2, 3] }, { shape: [2, 2] }], (_, [a, b]) => o.concat([a!, b!, a!], 1)));
  it('Concat of runtime-sized inputs (a KV cache of any length): the gradient is split by the inputs\' shapes at run time', async () => {
    const g = new o.Graph('concat-dynamic');
    const a = g.input('a', 'float32', [2, 'n']);
    const b = g.input('b', 'float32', [2, 'm']);
    const y = o.concat([a, b, a], 1);
    const grads = o.grad(o.reduceSum(o.mul(y, y)), [a, b]); // d/da = 2·2a (a appears twice), d/db = 2b
    g.output(grads.get(a)!, 'da');
    g.output(grads.get(b)!, 'db');
    const session = await o.OnnxSession.create(g);
    try {
      for (const [n, m] of [[3, 1], [1, 4]] as const) {
        const av = Float32Array.from({ length: 2 * n }, (_, i) => i + 1);
        const bv = Float32Array.from({ length: 2 * m }, (_, i) => -i - 0.5);
        const out = await session.run({ a: o.hostTensor('float32', [2, n], av), b: o.hostTensor('float32', [2, m], bv) });
        expect(Array.from(out['da']!.data as Float32Array)).toEqual(Array.from(av, (v) => 4 * v));
        expect(Array.from(out['db']!.data as Float32Array)).toEqual(Array.from(bv, (v) => 2 * v));
      }
    } finally {
      await session.close();
    }
  });
  it('Split (one piece unused)', () => checkGradients([{ shape: [2, 5] }], (_, [a]) => o.split(a!, 1, [2, 3])[1]!));
  it('Slice (negative start, clamped end)', () => checkGradients([{ shape: [3, 5] }], (_, [a]) => o.slice(a!, [1, 0], [-3, 1], [100, 3])));
  it('Expand', () => checkGradients([{ shape: [3, 1] }], (_, [a]) => o.expand(a!, [2, 3, 4])));
  it('Trilu', () => checkGradients([{ shape: [3, 3] }], (_, [a]) => o.trilu(a!, false)));
  it('Gather axis 0 with repeated indices', () =>
    checkGradients([{ shape: [4, 3] }], (g, [a]) => o.gather(a!, g.constant('int64', [1, 3, 1, 0, 1, 2], [2, 3]), 0)));
  it('Gather axis 1', () => checkGradients([{ shape: [2, 4, 3] }], (g, [a]) => o.gather(a!, g.constant('int64', [3, 3, 0], [3]), 1)));
  it('Gather of a scalar index, and of int32 indices', async () => {
    await checkGradients([{ shape: [4, 3] }], (g, [a]) => o.gather(a!, g.constant('int64', [2], []), 0));
    await checkGradients([{ shape: [4, 3] }], (g, [a]) => o.gather(a!, g.constant('int32', [0, 3, 0], [3]), 0));
  });
  it('Gather axis 1 with 2-D repeated indices', () =>
    checkGradients([{ shape: [2, 4, 3] }], (g, [a]) => o.gather(a!, g.constant('int64', [3, 0, 3, 3], [2, 2]), 1)));
  it('GatherElements', () =>
    checkGradients([{ shape: [2, 4] }], (g, [a]) => o.gatherElements(a!, g.constant('int64', [0, 0, 3, 2, 1, 1], [2, 3]), 1)));
  it('GatherND', () => checkGradients([{ shape: [3, 4] }], (g, [a]) => o.gatherND(a!, g.constant('int64', [2, 0, 2], [3, 1]))));
  it('GatherND over two axes, repeated and negative indices', () =>
    checkGradients([{ shape: [3, 4, 2] }], (g, [a]) => o.gatherND(a!, g.constant('int64', [0, 1, 2, -1, 0, 1, -3, 1, 1, 0, 0, 1], [2, 3, 2]))));
  it('ScatterElements (data and updates)', () =>
    checkGradients([{ shape: [2, 4] }, { shape: [2, 2] }], (g, [d, u]) => o.scatterElements(d!, g.constant('int64', [1, 3, 0, 2], [2, 2]), u!, 1)));
  it('ScatterND (data and updates)', () =>
    checkGradients([{ shape: [4, 3] }, { shape: [2, 3] }], (g, [d, u]) => o.scatterND(d!, g.constant('int64', [3, 1], [2, 1]), u!)));
  it('Softmax', () => checkGradients([{ shape: [2, 5] }], (_, [a]) => o.softmax(a!, -1)));
  it('LogSoftmax', () => checkGradients([{ shape: [2, 5] }], (_, [a]) => o.logSoftmax(a!, 0)));
  it('stopGradient blocks the path', () =>
    checkGradients([{ shape: [3] }], (_, [a]) => o.mul(a!, o.stopGradient(a!))).then(
      () => { throw new Error('a stopped gradient should differ from the full derivative'); },
      (e: Error) => { if (!/analytic/.test(e.message)) throw e; },
    ));
});

describe('gradients of gathers on several threads', () => {
  // onnxruntime's CPU ScatterND(add) races when threads add to the same row and loses updates; a
  // gather's gradient sums many rows into a few (an embedding's repeated tokens), so it must come
  // out the same, bit for bit, on any thread count.
  async function gradientsOnThreads(build: (g: o.Graph, table: o.Tensor) => o.Tensor, threads: number, runs: number): Promise<string[]> {
    const g = new o.Graph('gather-threads');
    const table = g.input('table', 'float32', [300, 64]);
    const y = build(g, table);
    const r = g.input('r', 'float32', y.shape as number[]);
    g.output(o.grad(o.reduceSum(o.mul(y, r)), [table]).get(table)!, 'dtable');
    const session = await o.OnnxSession.create(g, { intraOpThreads: threads });
    try {
      const rng = new Rng(3);
      const feeds = {
        table: o.hostTensor('float32', [300, 64], Float32Array.from({ length: 300 * 64 }, () => rng.normal())),
        r: o.hostTensor('float32', y.shape as number[], Float32Array.from({ length: y.shape.reduce<number>((a, d) => a * (d as number), 1) }, () => rng.normal())),
      };
      const out: string[] = [];
      for (let i = 0; i < runs; i++) out.push(Buffer.from((await session.run(feeds))['dtable']!.data as Float32Array).toString('base64'));
      return out;
    } finally {
      await session.close();
    }
  }
  // 8,192 lookups of mostly a few rows, as an embedding's repeated tokens.
  const rows = (n: number): number[] => Array.from({ length: n }, (_, i) => ((i * 7919) % 97) % ((i % 5) + 1) + (i % 3) * 100);

  it('Gather: the one-thread sums on 2 and 4 threads, run after run', async () => {
    const build = (g: o.Graph, t: o.Tensor): o.Tensor => o.gather(t, g.constant('int64', rows(8192), [8, 1024]), 0);
    const [reference] = await gradientsOnThreads(build, 1, 1);
    for (const threads of [2, 4]) expect(new Set(await gradientsOnThreads(build, threads, 6))).toEqual(new Set([reference]));
  });

  it('GatherND: the one-thread sums on 2 threads, run after run', async () => {
    const build = (g: o.Graph, t: o.Tensor): o.Tensor => o.gatherND(t, g.constant('int64', rows(8192), [8192, 1]));
    const [reference] = await gradientsOnThreads(build, 1, 1);
    expect(new Set(await gradientsOnThreads(build, 2, 6))).toEqual(new Set([reference]));
  });
});
