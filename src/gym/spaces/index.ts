/** Spaces: the sets of valid actions and observations. Also exported as the namespace `spaces`. */
export * from './space.js';
export * from './discrete.js';
export * from './box.js';
export * from './text.js';
export * from './dict.js';
export * from './tuple.js';
export * from './sequence.js';
export * from './one-of.js';
export * from './tool-call.js';
export * from './json-schema-sampler.js';
export * from './from-json-schema.js';
