/** The judge: pure functions deciding whether an answer matches the gold result. */
export * from './cell.js';
export * from './order-by.js';
export * from './compare-results.js';
export * from './answer-candidates.js';
export * from './judge-config.js';
export * from './judge-answer.js';
