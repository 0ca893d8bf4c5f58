/**
 * Central-finite-difference gradient checks in float64: builds `loss = Σ op(x)·R` (R fixed random,
 * so every output element is checked), differentiates it with `grad`, and compares each analytic
 * partial with (L(x+ε) − L(x−ε)) / 2ε evaluated by the same session.
 */
import { expect } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { Graph, OnnxSession, grad, hostTensor, mul, numElements, reduceSum, type HostTensor, type Tensor } from './onnx-api.js';

/** A float64 parameter to differentiate, with its shape and (optional) values. */
export interface ParamSpec {
  readonly shape: readonly number[];
  readonly values?: readonly number[];
  /** Draw values in (lo, hi) instead of N(0, 1): for log, sqrt, pow bases. */
  readonly range?: readonly [number, number];
}

/** Non-differentiable extra inputs (indices, masks) as constants. */
export type Build = (g: Graph, params: Tensor[]) => Tensor;

/**
 * Check d(Σ build(params)·R)/dparams against central differences.
 * `build` may return a scalar (then used as the loss directly) or any float64 tensor.
 */
export async function checkGradients(specs: readonly ParamSpec[], build: Build, opts: { eps?: number; tol?: number; seed?: number } = {}): Promise<number> {
  const rng = new Rng(opts.seed ?? 7);
  const g = new Graph('gradcheck');
  const params = specs.map((s, i) => g.input(`p${i}`, 'float64', s.shape));
  const y = build(g, params);
  const n = numElements(y.shape)!;
  const r = g.constant('float64', Array.from({ length: n }, () => rng.normal()), y.shape as number[]);
  const loss = y.rank === 0 ? y : reduceSum(mul(y, r));
  const values = specs.map((s) => {
    const size = s.shape.reduce((a, b) => a * b, 1);
    const draw = () => (s.range ? s.range[0] + (s.range[1] - s.range[0]) * rng.float() : rng.normal());
    return Float64Array.from(s.values ?? Array.from({ length: size }, draw));
  });
  return finiteDifferenceCheck(g, loss, params, values, {}, opts);
}

/**
 * Compare `grad(loss, params)` with central differences for every element of every param.
 * `values[i]` holds the float64 value of `params[i]`; `feeds` the other inputs. Returns the worst
 * relative error and throws on the first element beyond `tol`.
 */
export async function finiteDifferenceCheck(
  g: Graph,
  loss: Tensor,
  params: readonly Tensor[],
  values: readonly Float64Array[],
  feeds: Readonly<Record<string, HostTensor>>,
  opts: { eps?: number; tol?: number } = {},
): Promise<number> {
  const grads = grad(loss, params);
  g.output(loss, 'loss');
  params.forEach((p, i) => g.output(grads.get(p)!, `d${i}`));
  const session = await OnnxSession.create(g, { optimization: 'basic' });
  try {
    const allFeeds = (): Record<string, HostTensor> => ({
      ...feeds,
      ...Object.fromEntries(params.map((p, i) => [p.name, hostTensor('float64', p.shape as number[], values[i]!)])),
    });
    const out = await session.run(allFeeds());
    const eps = opts.eps ?? 1e-6;
    const lossAt = async (): Promise<number> => Number((await session.run(allFeeds(), { outputs: ['loss'] }))['loss']!.data[0]);
    let worst = 0;
    for (let i = 0; i < values.length; i++) {
      const analytic = out[`d${i}`]!.data as Float64Array;
      expect(analytic.length).toBe(values[i]!.length);
      for (let k = 0; k < values[i]!.length; k++) {
        const v = values[i]!;
        const orig = v[k]!;
        v[k] = orig + eps;
        const up = await lossAt();
        v[k] = orig - eps;
        const down = await lossAt();
        v[k] = orig;
        const numeric = (up - down) / (2 * eps);
        const err = Math.abs(numeric - analytic[k]!) / Math.max(1, Math.abs(numeric), Math.abs(analytic[k]!));
        worst = Math.max(worst, err);
        if (err > (opts.tol ?? 1e-6)) {
          throw new Error(`${params[i]!.name}[${k}]: analytic ${analytic[k]} vs numeric ${numeric} (rel err ${err.toExponential(2)})`);
        }
      }
    }
    return worst;
  } finally {
    await session.close();
  }
}
