/**
 * Encode a {@link Graph} as an ONNX ModelProto (field numbers from onnx/onnx.proto). Only nodes
 * that some output depends on are written, so unused forward or backward pieces cost nothing.
 */
import { DTYPE_BYTES, ONNX_DTYPE_CODE } from '../dtype.js';
import type { Graph } from '../graph/graph.js';
import type { Attr, ConstantData, Node } from '../graph/node.js';
import type { Tensor } from '../graph/tensor.js';
import { ProtoWriter } from './writer.js';

/** The ONNX IR version written by default (onnxruntime 1.30 accepts ≤ 13). */
export const DEFAULT_IR_VERSION = 10;
/** The default-domain opset written by default (onnxruntime 1.30 accepts ≤ 26). */
export const DEFAULT_OPSET = 21;

/** Options of {@link encodeModel}. */
export interface EncodeOptions {
  readonly irVersion?: number;
  readonly opset?: number;
  /** Opset versions of non-default domains used by nodes (default 1 each). */
  readonly domainVersions?: Readonly<Record<string, number>>;
  /**
   * Move initializers of at least `minBytes` into a separate blob (ONNX external data), to stay
   * under protobuf's 2 GiB limit. The model then refers to `location`, a file name next to it.
   */
  readonly externalData?: { readonly location: string; readonly minBytes: number };
}

/** An encoded model, with its external-data blob when one was requested and used. */
export interface EncodedModel {
  readonly model: Uint8Array;
  readonly externalData?: Uint8Array;
}

/**
 * Serialise `graph` (its outputs and everything they depend on) to ONNX bytes.
 *
 * @example
 * ```ts
 * const { model } = encodeModel(g);
 * const session = await ort.InferenceSession.create(model);
 * ```
 */
export function encodeModel(graph: Graph, opts: EncodeOptions = {}): EncodedModel {
  const live = liveNodes(graph);
  const used = new Set<Tensor>(graph.outputs);
  for (const n of live) for (const t of n.inputs) if (t) used.add(t);
  const external = opts.externalData ? new ExternalBlob(opts.externalData.location, opts.externalData.minBytes) : undefined;
  const { folded, nameOf } = foldOutputRenames(graph, live);
  const nodes = live.filter((n) => !folded.has(n));

  const g = new ProtoWriter();
  for (const n of nodes) g.message(1, encodeNode(n, nameOf));
  g.string(2, graph.name);
  for (const t of graph.initializers) {
    if (!used.has(t)) continue;
    g.message(5, encodeTensor(t.name, graph.constantValue(t)!, external));
  }
  for (const t of graph.inputs) g.message(11, encodeValueInfo(t));
  for (const t of graph.outputs) g.message(12, encodeValueInfo(t));

  const m = new ProtoWriter();
  m.int64(1, opts.irVersion ?? DEFAULT_IR_VERSION);
  m.string(2, 'sqlenv');
  m.string(3, '0.1');
  m.message(7, g);
  m.message(8, new ProtoWriter().string(1, '').int64(2, opts.opset ?? DEFAULT_OPSET));
  // Contrib ops (e.g. com.microsoft's fused attention, forward only) need their domain imported.
  for (const domain of new Set(nodes.map((n) => n.domain).filter((d) => d !== ''))) {
    m.message(8, new ProtoWriter().string(1, domain).int64(2, opts.domainVersions?.[domain] ?? 1));
  }
  const blob = external?.finish();
  return blob && blob.length > 0 ? { model: m.finish(), externalData: blob } : { model: m.finish() };
}

/** Nodes the outputs depend on, in graph order. */
export function liveNodes(graph: Graph): Node[] {
  const needed = new Set<Tensor>(graph.outputs);
  const live: Node[] = [];
  for (let i = graph.nodes.length - 1; i >= 0; i--) {
    const n = graph.nodes[i]!;
    if (!n.outputs.some((o) => needed.has(o))) continue;
    live.push(n);
    for (const t of n.inputs) if (t) needed.add(t);
  }
  return live.reverse();
}

/**
 * The Identity nodes that only rename a node's result to a graph output's name (`Graph.output(t, name)`), folded:
 * the producing node writes the output's name itself. onnxruntime keeps such an Identity when its input has other
 * consumers and copies the tensor at every run — a decode step's keys and values, once more each step. A tensor
 * renamed to two outputs keeps the second Identity; a graph input or constant, or a tensor that is itself an output,
 * keeps its Identity.
 */
function foldOutputRenames(graph: Graph, nodes: readonly Node[]): { folded: Set<Node>; nameOf: (t: Tensor) => string } {
  const outputs = new Set(graph.outputs);
  const folded = new Set<Node>();
  const renamed = new Map<Tensor, string>();
  for (const n of nodes) {
    const source = n.inputs[0];
    const out = n.outputs[0];
    if (n.opType !== 'Identity' || n.domain !== '' || !source || !out || !outputs.has(out)) continue;
    if (source.kind !== 'node' || outputs.has(source) || renamed.has(source)) continue;
    renamed.set(source, out.name);
    folded.add(n);
  }
  return { folded, nameOf: (t) => renamed.get(t) ?? t.name };
}

function encodeNode(n: Node, nameOf: (t: Tensor) => string): ProtoWriter {
  const w = new ProtoWriter();
  let last = n.inputs.length;
  while (last > 0 && n.inputs[last - 1] === undefined) last--;
  for (let i = 0; i < last; i++) {
    const t = n.inputs[i];
    w.string(1, t ? nameOf(t) : '');
  }
  for (const o of n.outputs) w.string(2, nameOf(o));
  w.string(3, `n${n.id}_${n.opType}`);
  w.string(4, n.opType);
  for (const [name, attr] of Object.entries(n.attrs)) w.message(5, encodeAttr(name, attr));
  if (n.domain) w.string(7, n.domain);
  return w;
}

function encodeAttr(name: string, a: Attr): ProtoWriter {
  const w = new ProtoWriter().string(1, name);
  switch (a.type) {
    case 'float': return w.float(2, a.value).int64(20, 1);
    case 'int': return w.int64(3, a.value).int64(20, 2);
    case 'string': return w.string(4, a.value).int64(20, 3);
    case 'tensor': return w.message(5, encodeTensor('', a.value)).int64(20, 4);
    case 'floats': return w.packedFloat(7, a.value).int64(20, 6);
    case 'ints': return w.packedInt64(8, a.value).int64(20, 7);
  }
}

function rawBytes(c: ConstantData): Uint8Array {
  return new Uint8Array(c.data.buffer, c.data.byteOffset, c.data.length * DTYPE_BYTES[c.dtype]);
}

function encodeTensor(name: string, c: ConstantData, external?: ExternalBlob): ProtoWriter {
  const w = new ProtoWriter().packedInt64(1, c.dims).int64(2, ONNX_DTYPE_CODE[c.dtype]);
  if (name) w.string(8, name);
  const raw = rawBytes(c);
  const placed = external?.place(raw);
  if (!placed) return w.bytes(9, raw);
  const entry = (k: string, v: string): ProtoWriter => new ProtoWriter().string(1, k).string(2, v);
  w.message(13, entry('location', placed.location));
  w.message(13, entry('offset', String(placed.offset)));
  w.message(13, entry('length', String(raw.length)));
  return w.int64(14, 1);
}

function encodeValueInfo(t: Tensor): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of t.shape) shape.message(1, typeof d === 'number' ? new ProtoWriter().int64(1, d) : new ProtoWriter().string(2, d));
  const tensorType = new ProtoWriter().int64(1, ONNX_DTYPE_CODE[t.dtype]).message(2, shape);
  return new ProtoWriter().string(1, t.name).message(2, new ProtoWriter().message(1, tensorType));
}

/** Collects large initializers into one external-data blob (64-byte aligned for mmap). */
class ExternalBlob {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  constructor(readonly location: string, private readonly minBytes: number) {}

  place(raw: Uint8Array): { location: string; offset: number } | undefined {
    if (raw.length < this.minBytes) return undefined;
    const pad = (64 - (this.size % 64)) % 64;
    if (pad) this.parts.push(new Uint8Array(pad));
    const offset = this.size + pad;
    this.parts.push(raw);
    this.size = offset + raw.length;
    return { location: this.location, offset };
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}
