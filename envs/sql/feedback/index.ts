/** SQLEnv's feedback as data (`info.feedback`) and its one renderer. */
export * from './sql-feedback.js';
export * from './render-feedback.js';
