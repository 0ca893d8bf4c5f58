/**
 * The parts of the ONNX compute core (src/onnx) the transformer graphs use, gathered in one
 * place so the rest of src/lm reads as model code.
 */
export {
  Graph,
  grad,
  ops,
  linear,
  embedding,
  rmsNorm,
  rope,
  attend,
  tokenLogProbs,
  logProbsAndEntropy,
  Runtime,
  ResidentOptimizer,
  adamw,
  markResident,
  hostTensor as onnxTensor,
} from '../../onnx/index.js';
// Graph-building internals the LM graphs need beyond the public API.
export { appendGradientAccumulation, accumulatorName } from '../../onnx/optim/resident-optimizer.js';
export { nextName } from '../../onnx/optim/train-step.js';
export type {
  Tensor,
  Dim,
  RuntimeOptions,
  OnnxSession,
  ProviderChoice,
  Feeds,
  HostTensor as OnnxHostTensor,
  OrtTensor,
  Optimizer,
  AdamWConfig,
  ResidentStepReport,
  ResidentOptimizerState,
} from '../../onnx/index.js';
