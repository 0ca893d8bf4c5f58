/**
 * Recipes: ready training setups that join an environment to the generic trainer. See docs/train.md.
 */
export * from './sql-training-setup.js';
export * from './recipe-error.js';
export * from './trained-run.js';
export * from './found-versus-answered.js';
