/**
 * Recipes: ready training setups that join an environment to the generic trainer (the top floor, with the
 * CLI and the root index). See docs/train.md and docs/architecture.md.
 */
export * from './sql/index.js';
export * from './recipe-error.js';
