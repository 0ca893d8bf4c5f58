/**
 * `sqlenv/onnx`: the ONNX compute core — a typed graph builder, reverse-mode autodiff emitting
 * standard ONNX ops, an onnxruntime runtime with provider selection, and optimizers that run as
 * ONNX graphs. The curated public API; docs/api.md lists every name (a test holds the two
 * equal). Graph internals (protobuf writer, gradient rule tables, name helpers) are imported by
 * path inside the project and are not promised. See docs/onnx.md.
 */

// Building graphs.
export { Graph, type OutputSpec, type ApplyOptions } from './graph/graph.js';
export { Tensor, type Operand, type TensorKind } from './graph/tensor.js';
export type { DType, HostArray } from './dtype.js';
export type { Dim, Shape } from './graph/shape.js';
export * as ops from './ops/all.js';
export { OnnxError } from './onnx-error.js';
export { ShapeError, GraphError } from './graph/errors.js';

// Differentiation.
export { grad, stopGradient, type GradOptions } from './autodiff/grad.js';
export { setNodeGradient } from './autodiff/custom.js';
export type { GradRule, GradContext } from './autodiff/types.js';

// Layers and models.
export { linear, embedding, type LinearOptions } from './layers/linear.js';
export { rmsNorm, layerNorm } from './layers/norm.js';
export { attend, attention, causalMask, rope, ropeTables, type AttentionOptions } from './layers/attention.js';
export { logProbsAndEntropy, softmaxCrossEntropy, tokenLogProbs, type CrossEntropyOptions } from './layers/loss.js';

// Encoding and running: one Session interface for in-thread and worker sessions.
export { encodeModel, type EncodeOptions, type EncodedModel } from './proto/model.js';
export type { Session, SessionOutput } from './runtime/session-api.js';
export { OnnxSession, type SessionOptions, type RunOptions, type SessionStats, type OptimizationLevel } from './runtime/session.js';
export { WorkerSession, type WorkerSessionOptions } from './runtime/worker-session.js';
export { readOnnxProfile, summarizeOnnxProfile, type ProfileSummary, type ProfileCost, type OnnxProfileEvent } from './runtime/profile.js';
export { Runtime, type RuntimeOptions, type SessionRequest } from './runtime/runtime.js';
export { hostTensor, markResident, isResident, type HostTensor, type Feeds, type OrtTensor } from './runtime/host-tensor.js';
export { selectProvider, type ProviderName, type ProviderChoice, type ProviderSelection } from './runtime/providers.js';
export { ProviderUnavailableError, SessionError } from './runtime/errors.js';
export { diagnoseRuntime, formatDoctorReport, type DoctorReport, type ProviderReport, type GpuEvidence } from './runtime/doctor.js';

// Optimizers as graphs, the fused training step, and resident training state.
export type { Optimizer, UpdateInputs, UpdateOutputs } from './optim/optimizer.js';
export { adamw, type AdamWConfig } from './optim/adamw.js';
export { sgd, type SgdConfig } from './optim/sgd.js';
export { clipByGlobalNorm } from './optim/clip.js';
export { TrainStep, type TrainStepSpec, type StepResult } from './optim/train-step.js';
export { ResidentOptimizer, type ResidentParameterSpec, type ResidentStepReport, type ResidentOptimizerState } from './optim/resident-optimizer.js';
