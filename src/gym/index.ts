export * from './rng.js';
export * from './env.js';
export * from './spaces/space.js';
export * from './worker-script.js';
