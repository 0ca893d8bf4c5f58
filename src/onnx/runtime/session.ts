/**
 * One compiled model on one execution provider. Owns its onnxruntime session; `close()` frees it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import ort from 'onnxruntime-node';
import type { Graph } from '../graph/graph.js';
import { encodeModel, type EncodeOptions, type EncodedModel } from '../proto/model.js';
import { SessionError } from './errors.js';
import { byteSize, isResident, markResident, toOrt, type Feeds, type OrtTensor } from './host-tensor.js';
import type { ProviderName } from './providers.js';
import type { Session } from './session-api.js';

/** onnxruntime graph optimisation levels. float64 graphs need `'basic'` (see docs/onnx.md). */
export type OptimizationLevel = 'disabled' | 'basic' | 'extended' | 'all';

/** Options of {@link OnnxSession.create}. */
export interface SessionOptions {
  /** Execution provider (already known to load; see `selectProvider`). Default 'cpu'. */
  readonly provider?: ProviderName;
  /** Default `'all'`; use `'basic'` for float64 graphs. */
  readonly optimization?: OptimizationLevel;
  /** Threads for one op (default: onnxruntime's choice, all cores). */
  readonly intraOpThreads?: number;
  /**
   * Outputs to keep resident: in device memory on GPU providers (`gpu-buffer`, fed back as inputs
   * without a copy); on CPU they are host tensors marked resident (see `markResident`).
   */
  readonly keepOnDevice?: readonly string[];
  /** Model encoding options when a Graph is given. */
  readonly encode?: EncodeOptions;
  /**
   * Write onnxruntime's per-node profile (Chrome trace JSON) to a file starting with this path
   * prefix when the session closes. Default: the `SQLENV_ONNX_PROFILE` environment variable,
   * so a whole run (trainer, bench) can be profiled without code changes; see
   * `summarizeOnnxProfile` for a table of where the time went.
   */
  readonly profile?: string;
}

/** Options of one run. */
export interface RunOptions {
  /** Outputs to compute (default: all). */
  readonly outputs?: readonly string[];
  /** Preallocated host tensors to write outputs into (CPU: reused buffers, no allocation per run). */
  readonly into?: Readonly<Record<string, OrtTensor>>;
}

/**
 * Counters of a session: runs, time in `run`, and traffic. `feedBytes` / `fetchBytes` count host
 * data fed anew and outputs returned to the host — what would cross the bus on a GPU provider;
 * resident tensors (device tensors, weights bound once, a KV cache fed back, outputs kept
 * resident) are counted in `residentFeeds` / `residentFetches` instead, as tensors, not bytes.
 */
export interface SessionStats {
  runs: number;
  runMs: number;
  feedBytes: number;
  fetchBytes: number;
  residentFeeds: number;
  residentFetches: number;
}

/**
 * A compiled model.
 *
 * @example
 * ```ts
 * const s = await OnnxSession.create(graph, { provider: 'cpu' });
 * const out = await s.run({ x: hostTensor('float32', [1, 4], new Float32Array(4)) });
 * await s.close();
 * ```
 */
export class OnnxSession implements Session {
  /** Counters since creation. */
  readonly stats: SessionStats = { runs: 0, runMs: 0, feedBytes: 0, fetchBytes: 0, residentFeeds: 0, residentFetches: 0 };
  private closed = false;
  private readonly kept: ReadonlySet<string>;
  private readonly profiling: boolean;

  private constructor(
    private readonly session: ort.InferenceSession,
    /** The provider this session runs on. */
    readonly provider: ProviderName,
    keepOnDevice: readonly string[] | undefined,
    /** A private directory holding the model and its external data, removed on close. */
    private readonly scratchDir?: string,
    profiling = false,
  ) {
    this.kept = new Set(keepOnDevice ?? []);
    this.profiling = profiling;
  }

  /**
   * Compile a graph, ONNX bytes, an encoded model with its external-data blob, or a path to an
   * .onnx file with its external data beside it.
   */
  static async create(model: Graph | Uint8Array | string | EncodedModel, opts: SessionOptions = {}): Promise<OnnxSession> {
    const provider = opts.provider ?? 'cpu';
    const options = ortSessionOptions(opts);
    const encoded: Uint8Array | string | EncodedModel = typeof model === 'string' || model instanceof Uint8Array || isEncoded(model) ? model : encodeModel(model, opts.encode);
    const keep = opts.keepOnDevice;
    const prof = options.enableProfiling === true;
    if (typeof encoded === 'string') return new OnnxSession(await ort.InferenceSession.create(encoded, options), provider, keep, undefined, prof);
    if (encoded instanceof Uint8Array) return new OnnxSession(await ort.InferenceSession.create(encoded, options), provider, keep, undefined, prof);
    if (!encoded.externalData) return new OnnxSession(await ort.InferenceSession.create(encoded.model, options), provider, keep, undefined, prof);
    // onnxruntime-node reads external data only from files next to a model loaded by path (it has
    // no in-memory external-data option), so both go to a private directory for the session's life.
    const location = opts.encode?.externalData?.location;
    if (!location) throw new SessionError('an encoded model with external data needs encode.externalData.location (the file name the model refers to)');
    const dir = await mkdtemp(join(tmpdir(), 'sqlenv-onnx-'));
    try {
      await writeFile(join(dir, basename(location)), encoded.externalData);
      await writeFile(join(dir, 'model.onnx'), encoded.model);
      return new OnnxSession(await ort.InferenceSession.create(join(dir, 'model.onnx'), options), provider, keep, dir, prof);
    } catch (e) {
      await rm(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** Input names in graph order. */
  get inputNames(): readonly string[] { return this.session.inputNames; }
  /** Output names in graph order. */
  get outputNames(): readonly string[] { return this.session.outputNames; }

  /**
   * Run the model. Blocks this thread for the duration of the computation (onnxruntime-node
   * does), so heavy sessions belong in a {@link WorkerSession}.
   */
  async run(feeds: Feeds, opts: RunOptions = {}): Promise<Record<string, OrtTensor>> {
    if (this.closed) throw new SessionError('session used after close()');
    const missing = this.inputNames.filter((n) => !(n in feeds));
    if (missing.length > 0) throw new SessionError(`missing feeds: ${missing.join(', ')} (inputs: ${this.inputNames.join(', ')})`);
    const ortFeeds: Record<string, OrtTensor> = {};
    for (const name of this.inputNames) {
      const t = feeds[name]!;
      ortFeeds[name] = toOrt(t);
      if (isResident(t)) this.stats.residentFeeds++;
      else this.stats.feedBytes += byteSize(t);
    }
    const names = opts.outputs ?? this.outputNames;
    const fetches: Record<string, OrtTensor | null> = {};
    for (const n of names) fetches[n] = opts.into?.[n] ?? null;
    const t0 = performance.now();
    const result = await this.session.run(ortFeeds, fetches);
    this.stats.runMs += performance.now() - t0;
    this.stats.runs++;
    for (const n of names) {
      const t = result[n]!;
      if (this.kept.has(n) || opts.into?.[n]) {
        // Kept outputs (and preallocated ones, which the caller feeds back) stay where they are.
        markResident(t);
        this.stats.residentFetches++;
      } else this.stats.fetchBytes += byteSize(t);
    }
    return result;
  }

  /** Free the native session (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.profiling) this.session.endProfiling();
      await this.session.release();
    } finally {
      if (this.scratchDir) await rm(this.scratchDir, { recursive: true, force: true });
    }
  }
}

/**
 * The onnxruntime options of a session: provider, optimisation level, threads, outputs kept on
 * the device, and on CPU no memory pattern.
 *
 * @example
 * ortSessionOptions({ provider: 'cpu', intraOpThreads: 1 }).enableMemPattern; // false
 */
export function ortSessionOptions(opts: SessionOptions): ort.InferenceSession.SessionOptions {
  const provider = opts.provider ?? 'cpu';
  const profile = opts.profile ?? process.env['SQLENV_ONNX_PROFILE'];
  return {
    executionProviders: [provider],
    ...(profile ? { enableProfiling: true, profileFilePrefix: profile } : {}),
    graphOptimizationLevel: opts.optimization ?? 'all',
    logSeverityLevel: 3,
    // CPU: no memory pattern. With it, the first runs at each new set of input shapes (every
    // training step brings new sequence lengths) plan one block for all of the run's tensors and
    // grow the arena to hold it: fresh pages, one page fault each, which made those runs up to 5×
    // slower (a GRPO update's passes: 1.2 s instead of 0.3 s). The arena alone reuses its chunks.
    ...(provider === 'cpu' ? { enableMemPattern: false } : {}),
    ...(opts.intraOpThreads ? { intraOpNumThreads: opts.intraOpThreads } : {}),
    ...(opts.keepOnDevice && provider !== 'cpu'
      ? { preferredOutputLocation: Object.fromEntries(opts.keepOnDevice.map((n) => [n, 'gpu-buffer'] as const)) }
      : {}),
  };
}

function isEncoded(model: Graph | EncodedModel): model is EncodedModel {
  return (model as EncodedModel).model instanceof Uint8Array;
}
