/** The table of gradient rules, assembled from the op files where each rule sits beside its forward. */
import { elementwiseGrads } from '../ops/elementwise.js';
import { indexingGrads } from '../ops/indexing.js';
import { matmulGrads } from '../ops/matmul.js';
import { nnGrads } from '../ops/nn.js';
import { reduceGrads } from '../ops/reduce.js';
import { shapeGrads } from '../ops/shape-ops.js';
import type { GradRules } from './types.js';

/** Every op type the autodiff engine can differentiate. */
export const GRAD_RULES: GradRules = {
  ...elementwiseGrads,
  ...matmulGrads,
  ...reduceGrads,
  ...shapeGrads,
  ...indexingGrads,
  ...nnGrads,
};

/**
 * Ops whose outputs never carry gradient (comparisons, index and shape computations). Autodiff
 * stops at them instead of failing for want of a rule.
 */
export const NON_DIFFERENTIABLE: ReadonlySet<string> = new Set([
  'Shape', 'Size', 'Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual', 'And', 'Or', 'Not',
  'ArgMax', 'ArgMin', 'Range', 'Sign', 'ConstantOfShape', 'Floor', 'Ceil', 'Round', 'TopK',
]);
