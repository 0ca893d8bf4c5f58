import { describe, expect, it } from 'vitest';
import ort from 'onnxruntime-node';
import {
  Graph, OnnxSession, ProviderUnavailableError, Runtime, SessionError, WorkerSession, hostTensor, probeProvider, selectProvider, shapeBucket,
  type ProviderName,
} from './onnx-api.js';
import { ortSessionOptions } from '../../src/onnx/runtime/session.js';

function affine(): Graph {
  const g = new Graph('affine');
  const x = g.input('x', 'float32', ['batch', 3]);
  g.output(x.mul(2).add(1), 'y');
  return g;
}

const failing = (bad: readonly ProviderName[]) => async (p: ProviderName): Promise<void> => {
  if (bad.includes(p)) throw new ProviderUnavailableError(p, `simulated ${p} failure`, `fix ${p}`);
};

describe('execution providers', () => {
  it('cpu always loads', async () => {
    await expect(probeProvider('cpu')).resolves.toBeUndefined();
    expect((await selectProvider('cpu')).provider).toBe('cpu');
  });

  it('webgpu without a GPU fails with the adapter reason and a Vulkan hint', async () => {
    // This machine has no GPU (and no Vulkan loader): Dawn finds no adapter.
    const err = await probeProvider('webgpu').then(() => undefined, (e: unknown) => e);
    if (err === undefined) return; // a machine with a working GPU: nothing to check here
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    const e = err as ProviderUnavailableError;
    expect(e.provider).toBe('webgpu');
    expect(e.reason).toMatch(/adapter/i);
    expect(e.hint).toMatch(/Vulkan/);
  });

  it('cuda without its provider libraries names the install opt-in', async () => {
    const err = await probeProvider('cuda').then(() => undefined, (e: unknown) => e);
    if (err === undefined) return;
    const e = err as ProviderUnavailableError;
    expect(e.message).toContain("execution provider 'cuda' is unavailable");
    expect(e.hint).toMatch(/ONNXRUNTIME_NODE_INSTALL=cuda12|CUDA 12/);
  });

  it('auto falls back in order and reports every skipped provider', async () => {
    const sel = await selectProvider('auto', failing(['cuda', 'webgpu']));
    expect(sel.provider).toBe('cpu');
    expect(sel.skipped.map((s) => s.provider)).toEqual(['cuda', 'webgpu']);
    expect((await selectProvider('auto', failing(['cuda']))).provider).toBe('webgpu');
  });

  it('an explicit provider never falls back', async () => {
    await expect(selectProvider('cuda', failing(['cuda']))).rejects.toThrow(/simulated cuda failure[\s\S]*fix cuda/);
  });

  it('auto with nothing loadable throws the last reason', async () => {
    await expect(selectProvider('auto', failing(['cuda', 'webgpu', 'cpu']))).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('Runtime logs each fallback', async () => {
    const logs: string[] = [];
    const rt = await Runtime.create({ provider: 'auto', probe: failing(['cuda', 'webgpu']), log: (m) => logs.push(m) });
    expect(rt.provider).toBe('cpu');
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(/falling back from cuda/);
    await rt.close();
  });

  it('the real auto selection on this machine ends on a working provider', async () => {
    const logs: string[] = [];
    const rt = await Runtime.create({ provider: 'auto', log: (m) => logs.push(m) });
    const s = await rt.session(affine());
    const out = await s.run({ x: hostTensor('float32', [1, 3], Float32Array.of(0, 1, 2)) });
    expect([...(out['y']!.data as Float32Array)]).toEqual([1, 3, 5]);
    expect(logs.length).toBe(rt.selection.skipped.length);
    await rt.close();
  });
});

describe('sessions', () => {
  it('the runtime caches sessions by graph content and by key', async () => {
    const rt = await Runtime.create({ provider: 'cpu' });
    const a = await rt.session(affine());
    const b = await rt.session(affine());
    expect(b).toBe(a);
    const other = new Graph('other');
    other.output(other.input('x', 'float32', [2]).neg(), 'y');
    expect(await rt.session(other)).not.toBe(a);
    let builds = 0;
    const build = () => { builds++; return affine(); };
    const k1 = await rt.session(build, { key: 'affine@8' });
    const k2 = await rt.session(build, { key: 'affine@8' });
    expect(k2).toBe(k1);
    expect(builds).toBe(1);
    expect(rt.size).toBe(3);
    await rt.close();
    await expect(rt.session(affine())).rejects.toBeInstanceOf(SessionError);
  });

  it('one session serves several batch sizes of a symbolic dim', async () => {
    const s = await OnnxSession.create(affine());
    for (const n of [1, 4]) {
      const out = await s.run({ x: hostTensor('float32', [n, 3], new Float32Array(n * 3).fill(1)) });
      expect(out['y']!.dims).toEqual([n, 3]);
    }
    await s.close();
  });

  it('writes outputs into preallocated tensors and counts bytes', async () => {
    const s = await OnnxSession.create(affine());
    const into = new ort.Tensor('float32', new Float32Array(3), [1, 3]);
    await s.run({ x: hostTensor('float32', [1, 3], Float32Array.of(1, 1, 1)) }, { into: { y: into } });
    expect([...(into.data as Float32Array)]).toEqual([3, 3, 3]);
    expect(s.stats.runs).toBe(1);
    expect(s.stats.feedBytes).toBe(12);
    await s.close();
  });

  it('counts resident feeds apart from host bytes, and sums every session in Runtime.stats', async () => {
    const rt = await Runtime.create({ provider: 'cpu' });
    const s = await rt.session(affine());
    const data = Float32Array.of(1, 2, 3);
    const { x } = await rt.upload({ x: hostTensor('float32', [1, 3], data) });
    expect(x!.data).toBe(data); // CPU: bound in place, no copy
    await s.run({ x: x! });
    expect(s.stats.feedBytes).toBe(0);
    expect(s.stats.residentFeeds).toBe(1);
    await s.run({ x: hostTensor('float32', [1, 3], data) });
    expect(s.stats.feedBytes).toBe(12);
    expect(rt.stats()).toMatchObject({ runs: 2, feedBytes: 12, residentFeeds: 1, fetchBytes: 24 });
    await rt.close();
  });

  it('downloads host tensors as they are, without a run (device tensors go through an identity run: checked on the GPU machine)', async () => {
    const rt = await Runtime.create({ provider: 'cpu' });
    const data = Float32Array.of(4, 5, 6);
    const { x } = await rt.upload({ x: hostTensor('float32', [3], data) });
    const host = await rt.download({ x: x! });
    expect(host['x']).toBe(data);
    expect(rt.stats().runs).toBe(0);
    expect(await rt.download({})).toEqual({});
    await rt.close();
  });

  it('rejects missing feeds and use after close with SessionError', async () => {
    const s = await OnnxSession.create(affine());
    await expect(s.run({})).rejects.toThrow(/missing feeds: x/);
    await s.close();
    await s.close();
    await expect(s.run({ x: hostTensor('float32', [1, 3], new Float32Array(3)) })).rejects.toBeInstanceOf(SessionError);
  });

  it('a worker session computes the same result and leaves the event loop free', async () => {
    const g = new Graph('heavy');
    const x = g.input('x', 'float32', [256, 256]);
    let h = x;
    for (let i = 0; i < 40; i++) h = h.matmul(x).tanh();
    g.output(h, 'y');
    const data = Float32Array.from({ length: 256 * 256 }, (_, i) => ((i % 17) - 8) / 64);
    const feeds = { x: hostTensor('float32', [256, 256], data) };
    const local = await OnnxSession.create(g);
    const expected = (await local.run(feeds))['y']!.data as Float32Array;
    await local.close();

    const ws = await WorkerSession.create(g);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const out = await ws.run(feeds);
    clearInterval(timer);
    await ws.close();
    expect(ws.inputNames).toEqual(['x']);
    expect(Array.from(out['y']!.data as Float32Array)).toEqual(Array.from(expected));
    expect(ticks).toBeGreaterThan(0);
    await expect(ws.run(feeds)).rejects.toBeInstanceOf(SessionError);
  });

  it('CPU sessions run without a memory pattern (new shapes would grow the arena every step); other providers keep the default', () => {
    expect(ortSessionOptions({ provider: 'cpu', intraOpThreads: 1 })).toMatchObject({ executionProviders: ['cpu'], enableMemPattern: false, intraOpNumThreads: 1, graphOptimizationLevel: 'all' });
    expect(ortSessionOptions({ provider: 'webgpu', keepOnDevice: ['y'] })).not.toHaveProperty('enableMemPattern');
    expect(ortSessionOptions({ provider: 'webgpu', keepOnDevice: ['y'] }).preferredOutputLocation).toEqual({ y: 'gpu-buffer' });
  });

  it('shapeBucket rounds lengths up to powers of two', () => {
    expect(shapeBucket(1)).toBe(16);
    expect(shapeBucket(100)).toBe(128);
    expect(shapeBucket(128)).toBe(128);
    expect(() => shapeBucket(600, 16, 512)).toThrow(/exceeds/);
  });
});
