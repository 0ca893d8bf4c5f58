/** Tolerant parsing of SQLEnv actions: every accepted form to one canonical tool call. */
export * from './action-types.js';
export * from './action-parser.js';
export * from './action-shape.js';
export * from './call-format.js';
export * from './tool-name.js';
export { FunctionArguments, readTextAction, readFunctionArguments } from './text-action.js';
export { unwrapEnvelope } from './envelope.js';
export { normaliseArguments } from './normalise-arguments.js';
