/** Graph nodes and their typed attributes. */
import type { DType, HostArray } from '../dtype.js';
import type { Tensor } from './tensor.js';

/** A typed ONNX attribute value. */
export type Attr =
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'ints'; readonly value: readonly number[] }
  | { readonly type: 'floats'; readonly value: readonly number[] }
  | { readonly type: 'tensor'; readonly value: ConstantData };

/** Attributes of one node, by name. */
export type Attrs = Readonly<Record<string, Attr>>;

/** Host data of a constant or initializer. */
export interface ConstantData {
  readonly dtype: DType;
  readonly dims: readonly number[];
  readonly data: HostArray;
}

/** Attribute constructors: `{ axis: attrInt(-1) }`. */
export const attrInt = (value: number): Attr => ({ type: 'int', value });
/** A float attribute. */
export const attrFloat = (value: number): Attr => ({ type: 'float', value });
/** An int-list attribute. */
export const attrInts = (value: readonly number[]): Attr => ({ type: 'ints', value });
/** A string attribute. */
export const attrString = (value: string): Attr => ({ type: 'string', value });

/** One operation in a graph. Inputs may be `undefined` for omitted optional ONNX inputs. */
export interface Node {
  readonly id: number;
  readonly opType: string;
  readonly domain: string;
  readonly inputs: readonly (Tensor | undefined)[];
  readonly outputs: readonly Tensor[];
  readonly attrs: Attrs;
  /** When true, autodiff treats this node as a constant (see `stopGradient`). */
  readonly noGrad: boolean;
}
