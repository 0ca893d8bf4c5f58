/**
 * The fixed choices of the bundled build. Changing any of them changes the dataset, so the
 * committed files and the data card must be rebuilt together (`npm run data:build`).
 */

/** Seed of every random choice in the build (rows, question values, phrasings, splits). */
export const BUNDLED_SEED = 20_241_121;

/** Databases held out of training entirely: their questions form `eval_unseen_db`. */
export const UNSEEN_DB_IDS: readonly string[] = ['museum_collection', 'real_estate', 'music_streaming'];

/** Share of each training database's questions kept for `eval`. */
export const EVAL_FRACTION = 0.2;

/** Size of the `smoke` split. */
export const SMOKE_SIZE = 30;

/**
 * Share of each training database's extra questions (`TRAIN_EXTRA_ROUNDS`) kept for `validation`:
 * about as many questions as the 12% of the non-`eval` questions it used to take (210, 74 easy).
 */
export const VALIDATION_FRACTION = 0.032;

/**
 * Procedurally generated databases whose questions form `validation_unseen_db`: the unseen
 * databases settings are chosen on, so that `eval_unseen_db` stays a test split. Their seeds are
 * reserved: pre-training corpora draw procedural databases from other seeds.
 */
export const VALIDATION_UNSEEN_DBS: readonly { id: string; seed: number }[] = [
  { id: 'gen_val_a', seed: 9_000_001 },
  { id: 'gen_val_b', seed: 9_000_002 },
  { id: 'gen_val_c', seed: 9_000_003 },
];

/**
 * Extra rounds of the training databases' templates, instantiated with seeds BUNDLED_SEED + 1…
 * after the other splits are fixed: more questions of the same kinds, none repeating the text or
 * SQL of a question in any split. `validation` takes VALIDATION_FRACTION of them, `train` the rest
 * (appended after its own questions); `eval`, `eval_unseen_db` and `smoke` are unchanged by them.
 */
export const TRAIN_EXTRA_ROUNDS = 4;
