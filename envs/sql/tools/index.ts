/** The SQLEnv tools: one JSON Schema per tool, and the exports derived from them. */
export * from './tool-spec.js';
export * from './describe.js';
export * from './sample.js';
export * from './query.js';
export * from './answer.js';
export * from './registry.js';
export * from './reference-table.js';
