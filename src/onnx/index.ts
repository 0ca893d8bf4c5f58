/**
 * The ONNX compute core: a typed graph builder, reverse-mode autodiff emitting standard ONNX ops,
 * an onnxruntime runtime with provider selection, and optimizers that run as ONNX graphs.
 * See docs/onnx.md.
 */
export type { DType, HostArray } from './dtype.js';
export { isFloatDType, toTypedArray } from './dtype.js';
export { Graph, type OutputSpec, type ApplyOptions } from './graph/graph.js';
export { Tensor, type Operand, type TensorKind } from './graph/tensor.js';
export type { Node, Attr, Attrs, ConstantData } from './graph/node.js';
export { attrInt, attrFloat, attrInts, attrString } from './graph/node.js';
export { ShapeError, GraphError } from './graph/errors.js';
export { broadcastShapes, isStatic, numElements, type Dim, type Shape } from './graph/shape.js';
export * as ops from './ops/all.js';
export { grad, stopGradient, type GradOptions } from './autodiff/grad.js';
export { GRAD_RULES, NON_DIFFERENTIABLE } from './autodiff/rules.js';
export { unbroadcast } from './autodiff/unbroadcast.js';
export type { GradRule, GradRules, GradContext } from './autodiff/types.js';
export { linear, embedding, type LinearOptions } from './layers/linear.js';
export { rmsNorm, layerNorm } from './layers/norm.js';
export { logProbsAndEntropy, softmaxCrossEntropy, tokenLogProbs, type CrossEntropyOptions } from './layers/loss.js';
export { attention, causalMask, maskScores, maskValue, rope, ropeTables } from './layers/attention.js';
export { encodeModel, liveNodes, DEFAULT_IR_VERSION, DEFAULT_OPSET, type EncodeOptions, type EncodedModel } from './proto/model.js';
export { ProtoWriter } from './proto/writer.js';
export { ProviderUnavailableError, SessionError } from './runtime/errors.js';
export { diagnoseRuntime, formatDoctorReport, gpuEvidence, type DoctorReport, type ProviderReport, type GpuEvidence } from './runtime/doctor.js';
export { selectProvider, probeProvider, providerHint, AUTO_ORDER, type ProviderName, type ProviderChoice, type ProviderSelection } from './runtime/providers.js';
export { OnnxSession, type SessionOptions, type RunOptions, type SessionStats, type OptimizationLevel } from './runtime/session.js';
export { Runtime, shapeBucket, type RuntimeOptions, type SessionRequest } from './runtime/runtime.js';
export { hostTensor, toOrt, markResident, isResident, type HostTensor, type Feeds, type OrtTensor } from './runtime/host-tensor.js';
export type { Optimizer, UpdateInputs, UpdateOutputs } from './optim/optimizer.js';
export { adamw, type AdamWConfig } from './optim/adamw.js';
export { sgd, type SgdConfig } from './optim/sgd.js';
export { clipByGlobalNorm } from './optim/clip.js';
export { adamwReferenceStep, sgdReferenceStep, clipReference } from './optim/reference.js';
export { ResidentOptimizer, appendGradientAccumulation, accumulatorName, type ResidentParameterSpec, type ResidentStepReport, type ResidentOptimizerState } from './optim/resident-optimizer.js';
export { TrainStep, buildTrainStep, nextName, type TrainStepSpec, type StepResult, type TrainStepLayout } from './optim/train-step.js';
export { decoderLM, decoderBlock, blockParams, ropeConstants, initDecoderWeights, mlpHidden, type DecoderConfig, type DecoderModel, type BlockParams } from './models/decoder.js';
export { WorkerSession, type WorkerSessionOptions } from './runtime/worker-session.js';
export { WorkerTrainStep } from './optim/worker-train-step.js';
