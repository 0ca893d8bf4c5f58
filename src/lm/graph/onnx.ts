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
} from '../../onnx/index.js';
