/**
 * sqlenv — Gymnasium/OpenEnv-style environments for language-model agents.
 *
 * Importing the package registers the bundled environments (`SQLEnv-v0`, `GuessNumber-v0`).
 */
export * from './gym/index.js';
export * from '../envs/sql/index.js';
export * from './remote/index.js';
export * from './onnx/index.js';
export * from './lm/index.js';
export * from './train/index.js';
