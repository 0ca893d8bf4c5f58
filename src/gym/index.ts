/**
 * The Gymnasium layer: environments, spaces, the registry, wrappers, vector environments and the
 * environment checker, with Gymnasium 1.x semantics and async `reset`/`step`.
 */
export * from '../base/rng.js';
export * from './env.js';
export * from './invalid-reset-options-error.js';
export * from './wrapper.js';
export * from './registry.js';
export * from './registration/env-id.js';
export * from './spaces/index.js';
export * as spaces from './spaces/index.js';
export * from './wrappers/index.js';
export * from './check/env-check-error.js';
export { checkResetResult, checkStepResult, type CheckWarning } from './check/result-checks.js';
export * from '../base/worker-script.js';
export * from './vector/index.js';
export * from './check/check-env.js';
