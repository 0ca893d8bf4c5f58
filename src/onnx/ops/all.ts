/** Every op function, for `import { ops } from 'sqlenv'` style access. */
export * from './elementwise.js';
export * from './matmul.js';
export * from './reduce.js';
export * from './shape-ops.js';
export * from './indexing.js';
export * from './nn.js';
