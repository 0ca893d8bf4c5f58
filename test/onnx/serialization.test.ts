import { readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { floatToHalfBits as float32ToFloat16Bits } from '../../src/base/half-float.js';
import { useTempDirs } from '../helpers/temp-dirs.js';
import { Graph, OnnxSession, ProtoWriter, Runtime, concat, encodeModel, hostTensor, liveNodes, clip } from './onnx-api.js';

const tempDir = useTempDirs('onnx-ext-');

const bytes = (w: ProtoWriter): number[] => [...w.finish()];

describe('ProtoWriter', () => {
  it('encodes varints, including multi-byte and negative int64', () => {
    expect(bytes(new ProtoWriter().int64(1, 150))).toEqual([0x08, 0x96, 0x01]);
    expect(bytes(new ProtoWriter().int64(2, -1))).toEqual([0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(bytes(new ProtoWriter().int64(1, 2n ** 40n))).toEqual([0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20]);
  });
  it('encodes strings, nested messages, packed ints and floats', () => {
    expect(bytes(new ProtoWriter().string(2, 'hi'))).toEqual([0x12, 2, 0x68, 0x69]);
    expect(bytes(new ProtoWriter().message(7, new ProtoWriter().int64(1, 3)))).toEqual([0x3a, 2, 0x08, 3]);
    expect(bytes(new ProtoWriter().packedInt64(1, [3, 270]))).toEqual([0x0a, 3, 3, 0x8e, 0x02]);
    expect(bytes(new ProtoWriter().float(2, 1))).toEqual([0x15, 0, 0, 0x80, 0x3f]);
    expect(bytes(new ProtoWriter().packedFloat(7, [1]))).toEqual([0x3a, 4, 0, 0, 0x80, 0x3f]);
  });
});

describe('encodeModel', () => {
  it('writes IR version and opset, and onnxruntime runs the result with initializers', async () => {
    const g = new Graph('init');
    const x = g.input('x', 'float32', [2]);
    const w = g.initializer('w', 'float32', [2], [10, 20]);
    g.output(x.mul(w), 'y');
    const { model, externalData } = encodeModel(g);
    expect(externalData).toBeUndefined();
    expect([model[0], model[1]]).toEqual([0x08, 10]); // ir_version = 10
    const s = await OnnxSession.create(model);
    const out = await s.run({ x: hostTensor('float32', [2], Float32Array.of(1, 2)) });
    expect([...(out['y']!.data as Float32Array)]).toEqual([10, 40]);
    await s.close();
  });

  it('onnxruntime 1.30 accepts up to IR 13 / opset 26 and rejects IR 14 or opset 27', async () => {
    const g = new Graph();
    g.output(g.input('x', 'float32', [2, 3]).sum([1]).softmax(0), 'y');
    await (await OnnxSession.create(encodeModel(g, { irVersion: 13, opset: 26 }).model)).close();
    await expect(OnnxSession.create(encodeModel(g, { irVersion: 14, opset: 26 }).model)).rejects.toThrow();
    await expect(OnnxSession.create(encodeModel(g, { irVersion: 13, opset: 27 }).model)).rejects.toThrow(/opset/i);
  });

  it('imports the domain of contrib ops (com.microsoft FastGelu runs forward)', async () => {
    const g = new Graph();
    const x = g.input('x', 'float32', [2]);
    g.output(g.apply('FastGelu', [x], {}, [{ dtype: 'float32', shape: [2] }], { domain: 'com.microsoft' })[0]!, 'y');
    const s = await OnnxSession.create(g);
    const y = (await s.run({ x: hostTensor('float32', [2], Float32Array.of(0, 10)) }))['y']!.data as Float32Array;
    expect(y[0]).toBe(0);
    expect(y[1]).toBeCloseTo(10, 4);
    await s.close();
  });

  it('keeps only the nodes the outputs need', () => {
    const g = new Graph();
    const x = g.input('x', 'float32', [2]);
    x.exp().log(); // dead
    g.output(x.neg(), 'y');
    expect(liveNodes(g).map((n) => n.opType)).toEqual(['Neg', 'Identity']);
  });

  it('writes an output rename on the producing node, with no Identity to copy it, and the same results', async () => {
    // Identity nodes in the model: each writes its op type and its node name (`n<id>_Identity`).
    const identities = (model: Uint8Array): number => Buffer.from(model).toString('latin1').split('Identity').length / 2 - 0.5;
    const g = new Graph();
    const x = g.input('x', 'float32', [2]);
    const cache = concat([x, x], 0); // also read by a later node, as a decode step's keys are
    g.output(cache, 'present');
    g.output(cache, 'again'); // a second name: that one keeps its Identity
    g.output(cache.sum([0]), 'total');
    g.output(x, 'echo'); // a graph input: kept
    const { model } = encodeModel(g);
    expect(liveNodes(g).filter((n) => n.opType === 'Identity')).toHaveLength(4); // present, again, total, echo
    expect(identities(model)).toBe(2);
    const s = await OnnxSession.create(model);
    const out = await s.run({ x: hostTensor('float32', [2], Float32Array.of(1, 2)) });
    expect([...(out['present']!.data as Float32Array)]).toEqual([1, 2, 1, 2]);
    expect([...(out['again']!.data as Float32Array)]).toEqual([1, 2, 1, 2]);
    expect([...(out['total']!.data as Float32Array)]).toEqual([6]);
    expect([...(out['echo']!.data as Float32Array)]).toEqual([1, 2]);
    await s.close();
  });

  it('omits a middle optional input as an empty name', async () => {
    const g = new Graph();
    g.output(clip(g.input('x', 'float32', [3]), undefined, 1), 'y');
    const s = await OnnxSession.create(g);
    const out = await s.run({ x: hostTensor('float32', [3], Float32Array.of(-5, 0.5, 5)) });
    expect([...(out['y']!.data as Float32Array)]).toEqual([-5, 0.5, 1]);
    await s.close();
  });

  it('moves large initializers to an external-data file that onnxruntime loads', async () => {
    const dir = tempDir();
    const g = new Graph('ext');
    const x = g.input('x', 'float32', [4]);
    const big = g.initializer('big', 'float32', [4], [1, 2, 3, 4]);
    const small = g.initializer('small', 'float32', [1], [100]);
    g.output(x.mul(big).add(small), 'y');
    const { model, externalData } = encodeModel(g, { externalData: { location: 'weights.bin', minBytes: 16 } });
    expect(externalData?.length).toBe(16);
    writeFileSync(join(dir, 'model.onnx'), model);
    writeFileSync(join(dir, 'weights.bin'), externalData!);
    const s = await OnnxSession.create(join(dir, 'model.onnx'));
    const out = await s.run({ x: hostTensor('float32', [4], Float32Array.of(1, 1, 1, 1)) });
    expect([...(out['y']!.data as Float32Array)]).toEqual([101, 102, 103, 104]);
    await s.close();
  });

  it('compiles a graph straight to a session with external data, and removes its scratch files on close', async () => {
    // Before: the blob was dropped when a Graph was compiled, so the model could not load.
    const g = new Graph('ext-direct');
    const x = g.input('x', 'float32', [4]);
    g.output(x.mul(g.initializer('big', 'float32', [4], [1, 2, 3, 4])).add(g.initializer('small', 'float32', [1], [100])), 'y');
    const encode = { externalData: { location: 'weights.bin', minBytes: 16 } };
    const scratch = () => readdirSync(tmpdir()).filter((n) => n.startsWith('sqlenv-onnx-')).sort();
    const before = scratch();
    const s = await OnnxSession.create(g, { encode });
    expect(scratch().length).toBe(before.length + 1);
    const out = await s.run({ x: hostTensor('float32', [4], Float32Array.of(1, 1, 1, 1)) });
    expect([...(out['y']!.data as Float32Array)]).toEqual([101, 102, 103, 104]);
    await s.close();
    expect(scratch()).toEqual(before);

    const runtime = await Runtime.create({ provider: 'cpu' });
    try {
      const a = await runtime.session(g, { encode });
      expect([...((await a.run({ x: hostTensor('float32', [4], Float32Array.of(0, 0, 0, 0)) }))['y']!.data as Float32Array)]).toEqual([100, 100, 100, 100]);
      expect(await runtime.session(g, { encode })).toBe(a);
    } finally {
      await runtime.close();
    }
    expect(scratch()).toEqual(before);
  });

  it('float16 constants round-trip through a Cast', async () => {
    expect(float32ToFloat16Bits(1)).toBe(0x3c00);
    expect(float32ToFloat16Bits(-2)).toBe(0xc000);
    expect(float32ToFloat16Bits(65504)).toBe(0x7bff);
    expect(float32ToFloat16Bits(1e6)).toBe(0x7c00);
    expect(float32ToFloat16Bits(2 ** -24)).toBe(1);
    const g = new Graph();
    g.output(g.constant('float16', [0.5, -3, 1024], [3]).cast('float32'), 'y');
    const s = await OnnxSession.create(g);
    expect([...((await s.run({}))['y']!.data as Float32Array)]).toEqual([0.5, -3, 1024]);
    await s.close();
  });
});
