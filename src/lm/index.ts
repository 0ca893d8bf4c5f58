/**
 * `sqlenv/lm`: language models in TypeScript — Hugging Face model directories (safetensors,
 * config, tokenizer, chat template), tool-call parsing, and a policy that scores, differentiates,
 * generates and trains on the ONNX core, with LoRA. The curated public API; docs/api.md lists
 * every name (a test holds the two equal). The graph builders, the engine that compiles them,
 * batching and RoPE helpers, byte-level pre-tokenisation and the dtype bit conversions are
 * imported by path inside the project and are not promised. See docs/lm.md.
 */

// Errors: every one is an LmError.
export { LmError, SafetensorsError, ModelConfigError, TokenizerError, LoraError } from './errors.js';

// Loading a model and its configuration.
export { loadModel, LanguageModel, type GenerationDefaults } from './model/language-model.js';
export { parseModelConfig, type ModelConfig, type ModelArch, type RopeScaling } from './model/config.js';
export { floatTensor, type FloatTensor } from './tensor.js';

// Weight files.
export { SafetensorsFile, type TensorEntry } from './safetensors/reader.js';
export type { SafetensorsDtype } from './safetensors/dtype.js';
export { writeSafetensors, type WriteSafetensorsOptions } from './safetensors/writer.js';
export { Checkpoint } from './safetensors/checkpoint.js';

// Tokenizer, chat templates and tokenizer training.
export { Tokenizer, type TokenizerEncodeOptions, type TokenizerDecodeOptions } from './tokenizer/tokenizer.js';
export {
  ChatTemplate,
  FALLBACK_CHAT_TEMPLATE,
  type ChatMessage,
  type ChatToolCall,
  type ChatTool,
  type ChatTemplateOptions,
} from './tokenizer/chat-template.js';
export {
  trainByteLevelBpe,
  toTokenizerJson,
  toTokenizerConfig,
  CHAT_ADDED_TOKENS,
  type BpeTrainerOptions,
  type TrainedBpe,
  type AddedTokenSpec,
  type TokenizerConfigOptions,
} from './tokenizer/bpe-trainer.js';

// Reading tool calls from generated text.
export { parseAssistantReply, type AssistantReply, type ParsedToolCall, type ToolCallFailure } from './tool-calls.js';

// The policy: log-probs, gradients, generation and training.
export { Policy, generate, type PolicyOptions, type PolicyTraining, type Prompt } from './compute/policy.js';
export { PolicyTrainer, type AdamWMoments, type TrainerStepReport } from './compute/policy-trainer.js';
export type { EngineOptions, WeightSource } from './compute/engine.js';
export type { ScoreResult, GradientResult, AccumulatedResult } from './compute/scoring.js';
export type { ScoringTemperature } from './compute/batch.js';
export type { GenerateOptions, Generation, GenerationTimings, FinishReason } from './compute/generate.js';
export { PromptCache } from './compute/prompt-cache.js';
export { sampleToken, argmax, logSoftmax, type SamplingOptions } from './compute/sampling.js';
export { NudgeApplier, nudgedLogits, type NextTokenGuide, type TokenNudge } from './compute/decoding-guide.js';

// LoRA adapters (PEFT format).
export { LoraAdapter, type LoraInitOptions } from './lora/adapter.js';
export type { LoraConfig } from './lora/config.js';

// Tiny random models for tests and the demo.
export { createTinyModel, type TinyModelOptions } from './tiny/create.js';
