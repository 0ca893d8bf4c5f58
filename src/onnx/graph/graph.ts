/**
 * The graph builder: owns tensors and nodes in creation order (which is always a valid
 * topological order), the inputs/initializers/constants and the outputs.
 */
import { toTypedArray, type DType, type HostArray } from '../dtype.js';
import { GraphError } from './errors.js';
import type { Attrs, ConstantData, Node } from './node.js';
import { fmtShape, numElements, type Dim, type Shape } from './shape.js';
import { Tensor } from './tensor.js';

/** The dtype and shape of one output of a node being applied. */
export interface OutputSpec {
  readonly dtype: DType;
  readonly shape: Shape;
}

/** Options of {@link Graph.apply}. */
export interface ApplyOptions {
  /** Operator domain; '' (default) is the standard ONNX domain. */
  readonly domain?: string;
  /** Autodiff treats the node as constant. */
  readonly noGrad?: boolean;
  /** Name of the (first) output tensor; defaults to a fresh `op_N` name. */
  readonly name?: string;
}

/**
 * An ONNX graph under construction.
 *
 * @example
 * ```ts
 * const g = new Graph('mlp');
 * const x = g.input('x', 'float32', ['batch', 8]);
 * const w = g.input('w', 'float32', [8, 2]);
 * g.output(x.matmul(w).relu(), 'y');
 * ```
 */
export class Graph {
  private readonly nodeList: Node[] = [];
  private readonly inputList: Tensor[] = [];
  private readonly initList: Tensor[] = [];
  private readonly outputList: Tensor[] = [];
  private readonly constants = new Map<Tensor, ConstantData>();
  private readonly names = new Set<string>();
  private counter = 0;

  constructor(readonly name = 'graph') {}

  /** All nodes in creation (topological) order. */
  get nodes(): readonly Node[] { return this.nodeList; }
  /** Runtime inputs in declaration order. */
  get inputs(): readonly Tensor[] { return this.inputList; }
  /** Initializers and constants (baked into the model). */
  get initializers(): readonly Tensor[] { return this.initList; }
  /** Outputs in declaration order. */
  get outputs(): readonly Tensor[] { return this.outputList; }

  /** Declare a runtime input. Symbolic dims are strings (`'batch'`). */
  input(name: string, dtype: DType, shape: Shape): Tensor {
    const t = new Tensor(this, this.claim(name), dtype, [...shape], 'input');
    this.inputList.push(t);
    return t;
  }

  /**
   * A named tensor baked into the model (e.g. frozen weights). Trainable parameters are usually
   * inputs instead, so one compiled session serves every step.
   */
  initializer(name: string, dtype: DType, dims: readonly number[], data: HostArray | ArrayLike<number>): Tensor {
    return this.addConstant(this.claim(name), dtype, dims, data, 'initializer');
  }

  /** An anonymous constant. `dims` defaults to `[values.length]`; `[]` makes a scalar. */
  constant(dtype: DType, values: HostArray | ArrayLike<number | bigint>, dims?: readonly number[]): Tensor {
    const d = dims ?? [values.length];
    return this.addConstant(this.fresh('const'), dtype, d, values, 'constant');
  }

  /** A scalar constant of `dtype`. */
  scalar(value: number, dtype: DType): Tensor {
    return this.constant(dtype, [value], []);
  }

  /** An int64 1-D constant (shapes, axes, indices). */
  int64s(values: readonly number[]): Tensor {
    return this.constant('int64', values, [values.length]);
  }

  /** Host data of a constant or initializer, or undefined for computed tensors and inputs. */
  constantValue(t: Tensor): ConstantData | undefined {
    return this.constants.get(t);
  }

  /** Values of a constant as plain numbers (shapes, axes), or undefined for non-constants. */
  constantInts(t: Tensor): number[] | undefined {
    const c = this.constants.get(t);
    if (!c) return undefined;
    const data = c.data as ArrayLike<number | bigint>;
    return Array.from({ length: data.length }, (_, i) => Number(data[i]));
  }

  /**
   * Add a node. Op functions call this after inferring output dtypes and shapes.
   * Returns the output tensors.
   */
  apply(opType: string, inputs: readonly (Tensor | undefined)[], attrs: Attrs, outputs: readonly OutputSpec[], opts: ApplyOptions = {}): Tensor[] {
    for (const t of inputs) {
      if (t && t.graph !== this) throw new GraphError(`${opType}: input ${t.name} belongs to another graph`);
    }
    const outs: Tensor[] = [];
    const node: Node = {
      id: this.nodeList.length,
      opType,
      domain: opts.domain ?? '',
      inputs: [...inputs],
      outputs: outs,
      attrs,
      noGrad: opts.noGrad ?? false,
    };
    outputs.forEach((spec, i) => {
      const name = i === 0 && opts.name ? this.claim(opts.name) : this.fresh(opType.toLowerCase());
      outs.push(new Tensor(this, name, spec.dtype, [...spec.shape], 'node', node));
    });
    this.nodeList.push(node);
    return outs;
  }

  /** Mark `t` as a graph output, optionally under a new name (adds an Identity). */
  output(t: Tensor, name?: string): Tensor {
    if (t.graph !== this) throw new GraphError(`output ${t.name} belongs to another graph`);
    let out = t;
    if ((name !== undefined && name !== t.name) || t.kind !== 'node' || this.outputList.includes(t)) {
      out = this.apply('Identity', [t], {}, [{ dtype: t.dtype, shape: t.shape }], name === undefined ? {} : { name })[0]!;
    }
    this.outputList.push(out);
    return out;
  }

  /** A fresh symbolic dim for sizes that are only known at run time. */
  freshDim(hint = 'd'): Dim {
    return `${hint}_${this.counter++}`;
  }

  private addConstant(name: string, dtype: DType, dims: readonly number[], values: HostArray | ArrayLike<number | bigint>, kind: 'initializer' | 'constant'): Tensor {
    const n = numElements(dims) ?? 0;
    if (values.length !== n) {
      throw new GraphError(`${name}: ${values.length} values do not fill shape ${fmtShape(dims)} (${n} elements)`);
    }
    const data = isHostArrayOf(dtype, values) ? values : toTypedArray(dtype, values as ArrayLike<number | bigint>);
    const t = new Tensor(this, name, dtype, [...dims], kind);
    this.constants.set(t, { dtype, dims: [...dims], data });
    this.initList.push(t);
    return t;
  }

  private claim(name: string): string {
    if (this.names.has(name)) throw new GraphError(`the name "${name}" is already used in graph ${this.name}`);
    this.names.add(name);
    return name;
  }

  private fresh(prefix: string): string {
    let name: string;
    do name = `${prefix}_${this.counter++}`;
    while (this.names.has(name));
    this.names.add(name);
    return name;
  }
}

function isHostArrayOf(dtype: DType, v: unknown): v is HostArray {
  switch (dtype) {
    case 'float32': return v instanceof Float32Array;
    case 'float64': return v instanceof Float64Array;
    case 'float16': return v instanceof Uint16Array;
    case 'int64': return v instanceof BigInt64Array;
    case 'int32': return v instanceof Int32Array;
    case 'bool': return v instanceof Uint8Array;
  }
}
