/** `sqlenv validate`: the environment checks its own reward (golden, degenerate, canaries, replay, leaks, stats). */
export * from './degenerate-policies.js';
export * from './validation-report.js';
export * from './validate-split.js';
export * from './validate-dataset.js';
