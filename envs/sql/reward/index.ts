/** SQLEnv's reward: one config object and pure functions of a step's outcome. */
export * from './reward-config.js';
export * from './potential.js';
export * from './step-reward.js';
