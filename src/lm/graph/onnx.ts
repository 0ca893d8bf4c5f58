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
  tokenLogProbs,
  logProbsAndEntropy,
  Runtime,
  ResidentOptimizer,
  appendGradientAccumulation,
  accumulatorName,
  nextName,
  adamw,
  markResident,
  hostTensor as onnxTensor,
} from '../../onnx/index.js';
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
