/**
 * The runtime: one resolved execution provider and a cache of compiled sessions keyed by graph
 * content (or a caller key such as `model@bucket`), so rebuilding an identical graph or asking for
 * a shape bucket again reuses the compiled session.
 */
import { createHash } from 'node:crypto';
import { Graph } from '../graph/graph.js';
import { encodeModel, type EncodeOptions, type EncodedModel } from '../proto/model.js';
import { selectProvider, type ProviderChoice, type ProviderName, type ProviderSelection } from './providers.js';
import { OnnxSession, type OptimizationLevel, type SessionStats } from './session.js';
import { SessionError } from './errors.js';
import type { DType, HostArray } from '../dtype.js';
import { markResident, toOrt, type HostTensor, type OrtTensor } from './host-tensor.js';

/** Options of {@link Runtime.create}. */
export interface RuntimeOptions {
  /** Default `'auto'` (cuda → webgpu → cpu). */
  readonly provider?: ProviderChoice;
  /** Default optimisation level of sessions (`'all'`). */
  readonly optimization?: OptimizationLevel;
  /** Threads per op. */
  readonly intraOpThreads?: number;
  /** Where fallback notices go (default `console.warn`). */
  readonly log?: (message: string) => void;
  /** Provider probe (tests inject failures). */
  readonly probe?: (p: ProviderName) => Promise<void>;
}

/** Options of one session request. */
export interface SessionRequest {
  /** Cache key; default: a hash of the encoded model and options. */
  readonly key?: string;
  readonly optimization?: OptimizationLevel;
  readonly keepOnDevice?: readonly string[];
  readonly encode?: EncodeOptions;
  /** Threads per op of this session (default: the runtime's `intraOpThreads`). */
  readonly intraOpThreads?: number;
}

/**
 * Owns a provider choice and every session it compiled; `close()` releases them all.
 *
 * @example
 * ```ts
 * const rt = await Runtime.create({ provider: 'auto' });
 * const s = await rt.session(graph);
 * const out = await s.run(feeds);
 * await rt.close();
 * ```
 */
export class Runtime {
  private readonly cache = new Map<string, Promise<OnnxSession>>();
  private readonly compiled: OnnxSession[] = [];
  private closed = false;

  private constructor(
    /** The provider chosen and why others were skipped. */
    readonly selection: ProviderSelection,
    private readonly opts: RuntimeOptions,
  ) {}

  /** Resolve the provider (probing it) and report any fallback through `log`. */
  static async create(opts: RuntimeOptions = {}): Promise<Runtime> {
    const selection = await selectProvider(opts.provider ?? 'auto', opts.probe);
    const log = opts.log ?? ((m: string) => console.warn(m));
    for (const s of selection.skipped) log(`[onnx] falling back from ${s.provider}: ${s.message}`);
    return new Runtime(selection, opts);
  }

  /** The provider sessions run on. */
  get provider(): ProviderName { return this.selection.provider; }

  /**
   * The counters of every session compiled so far, summed: runs, time, bytes fed from and fetched
   * to the host (what crosses the bus on a GPU provider), and resident tensors fed and kept.
   *
   * @example
   * ```ts
   * const before = rt.stats();
   * await policy.generate(prompts);
   * const bytes = rt.stats().feedBytes - before.feedBytes;
   * ```
   */
  stats(): SessionStats {
    const total: SessionStats = { runs: 0, runMs: 0, feedBytes: 0, fetchBytes: 0, residentFeeds: 0, residentFetches: 0 };
    for (const s of this.compiled) for (const k of Object.keys(total) as (keyof SessionStats)[]) total[k] += s.stats[k];
    return total;
  }

  /** Number of compiled sessions held. */
  get size(): number { return this.cache.size; }

  /** A compiled session for `graph`, from the cache when an identical one was compiled. */
  async session(graph: Graph | (() => Graph), req: SessionRequest = {}): Promise<OnnxSession> {
    if (this.closed) throw new SessionError('runtime used after close()');
    const optimization = req.optimization ?? this.opts.optimization ?? 'all';
    let model: EncodedModel | undefined;
    let key = req.key;
    if (key === undefined) {
      const g = typeof graph === 'function' ? graph() : graph;
      model = encodeModel(g, req.encode);
      const hash = createHash('sha256').update(model.model);
      if (model.externalData) hash.update(model.externalData);
      key = hash.digest('hex');
    }
    const intraOpThreads = req.intraOpThreads ?? this.opts.intraOpThreads;
    key = `${key}|${optimization}|${(req.keepOnDevice ?? []).join(',')}|${intraOpThreads ?? ''}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const source = model ?? encodeModel(typeof graph === 'function' ? graph() : graph, req.encode);
    const created = OnnxSession.create(source, {
      provider: this.provider,
      optimization,
      ...(intraOpThreads ? { intraOpThreads } : {}),
      ...(req.keepOnDevice ? { keepOnDevice: req.keepOnDevice } : {}),
      ...(req.encode ? { encode: req.encode } : {}),
    });
    this.cache.set(key, created);
    created.then((s) => this.compiled.push(s), () => this.cache.delete(key));
    return created;
  }

  /**
   * Make host tensors resident for feeding any session of this runtime, once (e.g. weights, once
   * per optimizer step). CPU: the host buffers are wrapped in place (no copy; later in-place writes
   * are seen) and marked resident. GPU providers: one run of an identity graph copies them to
   * device memory (`gpu-buffer` outputs); later writes to the host buffers are not seen.
   *
   * @example
   * ```ts
   * const { w } = await rt.upload({ w: hostTensor('float32', [64, 64], weights) });
   * await session.run({ x, w }); // w is fed without a copy
   * ```
   */
  async upload(tensors: Readonly<Record<string, HostTensor>>): Promise<Record<string, OrtTensor>> {
    const names = Object.keys(tensors);
    if (this.provider === 'cpu' || names.length === 0) {
      return Object.fromEntries(names.map((n) => [n, markResident(toOrt(tensors[n]!))]));
    }
    const signature = names.map((n) => `${n}:${tensors[n]!.type}[${tensors[n]!.dims.join(',')}]`).join(';');
    const key = `upload|${createHash('sha256').update(signature).digest('hex')}`;
    const build = (): Graph => {
      const g = new Graph('upload');
      names.forEach((n, i) => g.output(g.input(`in${i}`, tensors[n]!.type, tensors[n]!.dims), `out${i}`));
      return g;
    };
    const session = await this.session(build, { key, keepOnDevice: names.map((_, i) => `out${i}`) });
    const out = await session.run(Object.fromEntries(names.map((n, i) => [`in${i}`, tensors[n]!])));
    return Object.fromEntries(names.map((n, i) => [n, out[`out${i}`]!]));
  }

  /**
   * Host copies of tensors, e.g. resident parameters for a checkpoint. Host tensors come back as
   * they are; tensors in device memory through one run of an identity graph whose outputs are
   * host tensors. Why not `Tensor.getData()`: on onnxruntime-node 1.30's WebGPU provider it ends
   * the process (`terminate called after throwing an instance of 'char const*'`, measured on an
   * H100 in 2026-11), while copying a run's output to the host is the path every run takes.
   *
   * @example
   * ```ts
   * const { w } = await rt.download({ w: trainer.parameter('w') });
   * ```
   */
  async download(tensors: Readonly<Record<string, OrtTensor>>): Promise<Record<string, HostArray>> {
    const out: Record<string, HostArray> = {};
    const onDevice = Object.keys(tensors).filter((n) => tensors[n]!.location !== 'cpu');
    for (const n of Object.keys(tensors)) if (tensors[n]!.location === 'cpu') out[n] = tensors[n]!.data as HostArray;
    if (onDevice.length === 0) return out;
    const signature = onDevice.map((n) => `${tensors[n]!.type}[${tensors[n]!.dims.join(',')}]`).join(';');
    const key = `download|${createHash('sha256').update(signature).digest('hex')}`;
    const build = (): Graph => {
      const g = new Graph('download');
      onDevice.forEach((n, i) => g.output(g.input(`in${i}`, tensors[n]!.type as DType, tensors[n]!.dims), `out${i}`));
      return g;
    };
    const session = await this.session(build, { key });
    const fetched = await session.run(Object.fromEntries(onDevice.map((n, i) => [`in${i}`, tensors[n]!])));
    onDevice.forEach((n, i) => (out[n] = fetched[`out${i}`]!.data as HostArray));
    return out;
  }

  /** Release every session (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const all = [...this.cache.values()];
    this.cache.clear();
    await Promise.allSettled(all.map(async (s) => (await s).close()));
  }
}

/**
 * Round a length up to its bucket (powers of two from `min`, capped at `max`), so variable
 * sequence lengths map to few static-shape sessions.
 *
 * @example
 * ```ts
 * shapeBucket(100); // 128
 * ```
 */
export function shapeBucket(n: number, min = 16, max = Number.POSITIVE_INFINITY): number {
  let b = min;
  while (b < n) b *= 2;
  if (n > max) throw new RangeError(`length ${n} exceeds the largest bucket ${max}`);
  return Math.min(b, max);
}
