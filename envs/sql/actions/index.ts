/** Tolerant parsing of SQLEnv actions: every accepted form to one canonical tool call. */
export * from './action-types.js';
export * from './action-parser.js';
export * from './action-shape.js';
export * from './call-format.js';
export * from './tool-name.js';
export { readTextAction } from './text-action.js';
export { FunctionArguments, readFunctionArguments } from './function-arguments.js';
export { MODEL_CALL_FORMATS, readModelFormat, type ModelCallFormat, type ExampleCall } from './model-formats.js';
export { unwrapEnvelope } from './envelope.js';
export { normaliseArguments } from './normalise-arguments.js';
