/**
 * sqlenv — Gymnasium/OpenEnv-style environments for language-model agents.
 *
 * The environment side (the Gymnasium layer, SQLEnv, the remote server and client) is exported
 * flat; the training stack is exported as namespaces (`onnx`, `lm`, `train`) and as subpaths
 * (`sqlenv/onnx`, `sqlenv/lm`, `sqlenv/train`) because its names (Tensor, Model, StepResult…)
 * would otherwise collide with the environment API.
 *
 * Importing the package registers the bundled environments (`SQLEnv-v0`, `GuessNumber-v0`).
 *
 * @example
 * ```ts
 * import { make } from 'sqlenv';
 * const env = make('SQLEnv-v0', { dataset: 'bundled', split: 'train' });
 * ```
 */
export * from './gym/index.js';
export * from '../envs/sql/index.js';
export * from '../envs/guess/index.js';
export * from './remote/index.js';
export * as onnx from './onnx/index.js';
export * as lm from './lm/index.js';
export * as train from './train/index.js';
export * as recipes from './recipes/index.js';
