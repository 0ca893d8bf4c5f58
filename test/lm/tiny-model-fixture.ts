/**
 * A tiny random model for a test file: built once in a temporary directory before the file's
 * tests, loaded, and deleted after them. Call it at the top level of the file; the getter it
 * returns gives the loaded model inside tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createTinyModel, loadModel, type LanguageModel, type TinyModelOptions } from '../../src/lm/index.js';

export function useTinyModel(options: TinyModelOptions): () => LanguageModel {
  const root = mkdtempSync(join(tmpdir(), 'tiny-model-'));
  let model: LanguageModel | undefined;
  beforeAll(async () => {
    await createTinyModel(join(root, 'tiny'), options);
    model = await loadModel(join(root, 'tiny'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return () => {
    if (!model) throw new TypeError('useTinyModel: the model is built in beforeAll; read it inside a test');
    return model;
  };
}
