export * from './dtype.js';
export * from './reader.js';
export * from './writer.js';
export * from './checkpoint.js';
