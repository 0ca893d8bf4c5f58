import { SqlEnvError } from '../sql-env-error.js';

/**
 * A dataset cannot be loaded: a missing directory, split or database folder, or an unreadable
 * question file. The message lists what does exist.
 *
 * @example
 * ```ts
 * try { await loadDataset({ kind: 'spider', dir }, 'validation'); }
 * catch (e) { if (e instanceof DatasetError) console.error(e.message); } // "… splits here: train, dev"
 * ```
 */
export class DatasetError extends SqlEnvError {
  override readonly name = 'DatasetError';
}
