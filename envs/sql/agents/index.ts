/** Baseline agents for SQLEnv and the evaluation loop the CLI and trainer use. */
export * from './agent.js';
export * from './random-agent.js';
export * from './oracle-agent.js';
export * from './noisy-agent.js';
export * from './gold-lookup.js';
export * from './run-episodes.js';
export * from './compact-answer.js';
