/** SQLEnv's observation: its type and space, and its text renderings. */
export * from './sql-observation.js';
export * from './render-result.js';
export * from './render-observation.js';
export * from './display-number.js';
