export * from './autoreset-mode.js';
export * from './vector-env.js';
export * from './sub-env-runner.js';
export * from './sync-vector-env.js';
export * from './async-vector-env.js';
export { VectorEnvWorkerError } from './worker-handle.js';
export * from './make-vec.js';
