/** SQLEnv as a language-model training task: prompt, tools, rendering, and the question order. */
export * from './sql-task.js';
export * from './question-order.js';
