import { describe, expect, it } from 'vitest';
import { Graph, GraphError, OnnxSession, ShapeError, broadcastShapes, grad, hostTensor, reshape, stopGradient } from './onnx-api.js';

describe('shape inference', () => {
  it('broadcasts static and symbolic dims', () => {
    expect(broadcastShapes('Add', [['B', 1, 4], [3, 1]])).toEqual(['B', 3, 4]);
    expect(() => broadcastShapes('Add', [[2, 3], [4, 3]])).toThrow(/cannot broadcast shapes \[2, 3\] and \[4, 3\]/);
  });

  it('infers through matmul, reshape with 0/-1, transpose and reductions', () => {
    const g = new Graph();
    const x = g.input('x', 'float32', ['B', 'T', 8]);
    const w = g.input('w', 'float32', [8, 6]);
    const y = x.matmul(w);
    expect(y.shape).toEqual(['B', 'T', 6]);
    expect(reshape(y, [0, 0, 2, 3]).shape).toEqual(['B', 'T', 2, 3]);
    expect(y.transpose([2, 0, 1]).shape).toEqual([6, 'B', 'T']);
    expect(y.sum([1], true).shape).toEqual(['B', 1, 6]);
    expect(reshape(g.input('z', 'float32', [2, 6]), [-1, 4]).shape).toEqual([3, 4]);
  });

  it('names the op and the shapes in errors', () => {
    const g = new Graph();
    const a = g.input('a', 'float32', [2, 3]);
    expect(() => a.matmul(g.input('b', 'float32', [4, 5]))).toThrow(ShapeError);
    expect(() => a.matmul(g.input('c', 'float32', [4, 5]))).toThrow(/MatMul: inner dims differ: a \[2, 3\] × c \[4, 5\]/);
    expect(() => a.add(g.input('d', 'float64', [2, 3]))).toThrow(/dtypes differ.*cast one operand/);
    expect(() => a.reshape([4, 2])).toThrow(/cannot reshape \[2, 3\] \(6 elements\)/);
    expect(() => a.squeeze([0])).toThrow(/axis 0 of \[2, 3\] has size 2/);
    expect(() => a.sum([5])).toThrow(/axis 5 is out of range/);
  });

  it('rejects duplicate names and cross-graph inputs', () => {
    const g = new Graph();
    g.input('x', 'float32', [1]);
    expect(() => g.input('x', 'float32', [1])).toThrow(GraphError);
    const other = new Graph();
    expect(() => other.output(g.inputs[0]!)).toThrow(/another graph/);
  });
});

describe('grad', () => {
  it('needs a scalar loss (or a seed) and float params', () => {
    const g = new Graph();
    const x = g.input('x', 'float32', [3]);
    expect(() => grad(x.mul(2), [x])).toThrow(/reduce it to a scalar/);
    const i = g.input('i', 'int64', [3]);
    expect(() => grad(x.sum(), [i])).toThrow(/non-float/);
  });

  it('says which op lacks a rule', () => {
    const g = new Graph();
    const x = g.input('x', 'float32', [3]);
    const [c] = g.apply('Cos', [x], {}, [{ dtype: 'float32', shape: [3] }]);
    expect(() => grad(c!.sum(), [x])).toThrow(/no gradient rule for Cos.*stopGradient/);
    expect(() => grad(stopGradient(c!).sum().add(x.sum()), [x])).not.toThrow();
  });

  it('gives zeros to a parameter the loss ignores, and 2w for w·w', async () => {
    const g = new Graph();
    const w = g.input('w', 'float32', [3]);
    const unused = g.input('u', 'float32', [2]);
    const grads = grad(w.mul(w).sum(), [w, unused]);
    g.output(grads.get(w)!, 'dw');
    g.output(grads.get(unused)!, 'du');
    const s = await OnnxSession.create(g);
    const out = await s.run({ w: hostTensor('float32', [3], Float32Array.of(1, -2, 3)), u: hostTensor('float32', [2], Float32Array.of(5, 5)) });
    expect([...(out['dw']!.data as Float32Array)]).toEqual([2, -4, 6]);
    expect([...(out['du']!.data as Float32Array)]).toEqual([0, 0]);
    await s.close();
  });
});
