import { SqlenvError } from '../base/sqlenv-error.js';

/**
 * Typed errors of the language-model layer. Each message says what was wrong and what to do,
 * so a user pointing the SDK at a downloaded model directory can fix the problem without
 * reading the source.
 */

/**
 * Base class of every error thrown by `src/lm`.
 *
 * @example
 * try { await loadModel('missing/'); } catch (e) { if (e instanceof LmError) console.error(e.message); }
 */
export class LmError extends SqlenvError {}

/**
 * A safetensors file is malformed, truncated, or holds a dtype this SDK cannot convert.
 *
 * @example
 * throw new SafetensorsError('model.safetensors: header length 99999999999 exceeds the file size');
 */
export class SafetensorsError extends LmError {}

/**
 * A model directory or its config.json does not describe a supported model.
 *
 * @example
 * throw new ModelConfigError('config.json: model_type "gpt2" is not supported; use a Llama/Qwen2/Qwen3 model');
 */
export class ModelConfigError extends LmError {}

/**
 * The tokenizer files or chat template cannot be loaded or rendered.
 *
 * @example
 * throw new TokenizerError('tokenizer.json not found in ./model; copy it from the model repository');
 */
export class TokenizerError extends LmError {}

/**
 * A LoRA adapter does not fit the model it is applied to.
 *
 * @example
 * throw new LoraError('adapter targets "gate_proj" but the model has no parameter ...gate_proj.weight');
 */
export class LoraError extends LmError {}
