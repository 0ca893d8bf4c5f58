/** The public API under test, imported the way users import it. */
export * from '../../src/onnx/index.js';
export * from '../../src/onnx/ops/all.js';
// Internals the tests pin down directly (not part of the public API, docs/api.md).
export { isFloatDType, toTypedArray } from '../../src/onnx/dtype.js';
export { attrInt, attrFloat, attrInts, attrString, type Node, type Attr, type Attrs, type ConstantData } from '../../src/onnx/graph/node.js';
export { broadcastShapes, isStatic, numElements } from '../../src/onnx/graph/shape.js';
export { GRAD_RULES, NON_DIFFERENTIABLE } from '../../src/onnx/autodiff/rules.js';
export { unbroadcast } from '../../src/onnx/autodiff/unbroadcast.js';
export type { GradRule, GradRules, GradContext } from '../../src/onnx/autodiff/types.js';
export { maskScores, maskValue } from '../../src/onnx/layers/attention.js';
export { setNodeGradient } from '../../src/onnx/autodiff/custom.js';
export { liveNodes, DEFAULT_IR_VERSION, DEFAULT_OPSET } from '../../src/onnx/proto/model.js';
export { ProtoWriter } from '../../src/onnx/proto/writer.js';
export { probeProvider, providerHint, AUTO_ORDER } from '../../src/onnx/runtime/providers.js';
export { shapeBucket } from '../../src/onnx/runtime/runtime.js';
export { toOrt } from '../../src/onnx/runtime/host-tensor.js';
export { gpuEvidence } from '../../src/onnx/runtime/doctor.js';
export { adamwReferenceStep, sgdReferenceStep, clipReference } from '../../src/onnx/optim/reference.js';
export { appendGradientAccumulation, accumulatorName } from '../../src/onnx/optim/resident-optimizer.js';
export { nextName } from '../../src/onnx/optim/train-step.js';
export { decoderLM, initDecoderWeights, type DecoderConfig, type DecoderModel } from '../../src/onnx/models/decoder.js';
export { decoderBlock, blockParams, ropeConstants, mlpHidden, type BlockParams } from '../../src/onnx/models/decoder.js';
