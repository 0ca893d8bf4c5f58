/**
 * Shared text utilities for reading what language models write: a tolerant JSON reader and
 * the `<tool_call>` block extractor. SQLEnv's action parser and the language-model layer both
 * use these, so a model's output is read the same way everywhere.
 */
export * from './tolerant-json.js';
export * from './tool-calls.js';
export * from './set-entry.js';
