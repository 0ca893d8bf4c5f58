export * from './time-limit.js';
export * from './order-enforcing.js';
export * from './passive-env-checker.js';
export * from './record-episode-statistics.js';
export * from './transform-reward.js';
export * from './transform-observation.js';
export * from './clip-reward.js';
export * from './autoreset.js';
