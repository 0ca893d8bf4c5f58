/**
 * Language models in TypeScript: Hugging Face model directories (safetensors, config,
 * tokenizer, chat template), tool-call parsing, transformer graphs on the ONNX core,
 * KV-cache generation and LoRA.
 */
export * from './errors.js';
export * from './tensor.js';
export * from './safetensors/index.js';
export * from './model/config.js';
export * from './model/rope.js';
export * from './model/parameters.js';
export * from './model/language-model.js';
export * from './tokenizer/byte-level.js';
export * from './tokenizer/bpe-trainer.js';
export * from './tokenizer/chat-template.js';
export * from './tokenizer/tokenizer.js';
export * from './tokenizer/rust-whitespace.js';
export * from './tokenizer/pre-tokenizer-json.js';
export * from './tool-calls.js';
export * from './tiny/corpus.js';
export * from './tiny/init.js';
export * from './tiny/create.js';
export * from './lora/config.js';
export * from './lora/adapter.js';
export * from './graph/layers.js';
export * from './graph/decoder.js';
export * from './graph/graphs.js';
export * from './compute/batch.js';
export * from './compute/sampling.js';
export * from './compute/engine.js';
export * from './compute/scoring.js';
export * from './compute/generate.js';
export * from './compute/policy.js';
export * from './compute/policy-trainer.js';
