/**
 * The foundation layer (src/base) imports nothing of the project, the Gymnasium layer nothing
 * but it, the trainer no environment, and the environments nothing of models, decoding or training: the
 * dependency rules of docs/architecture.md.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Project files (relative to the root) that the files under `dir` import, by importer. */
async function projectImports(dir: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const file of await sourceFiles(join(root, dir))) {
    const text = await readFile(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      out.push([relative(root, file), relative(root, resolve(dirname(file), m[1]!))]);
    }
  }
  return out;
}

describe('layering', () => {
  it('src/base imports only src/base', async () => {
    const outside = (await projectImports('src/base')).filter(([, target]) => !target.startsWith('src/base/'));
    expect(outside).toEqual([]);
  });

  it('src/gym imports only src/gym and src/base', async () => {
    const outside = (await projectImports('src/gym')).filter(([, target]) => !target.startsWith('src/gym/') && !target.startsWith('src/base/'));
    expect(outside).toEqual([]);
  });

  it('src/train imports no environment (envs/) and no recipe: it is generic over any Env', async () => {
    const outside = (await projectImports('src/train')).filter(([, target]) => target.startsWith('envs/') || target.startsWith('src/recipes/'));
    expect(outside).toEqual([]);
  });

  it('envs/ imports nothing of models, decoding, training or recipes (src/lm, src/onnx, src/train, src/recipes)', async () => {
    const upward = ['src/lm/', 'src/onnx/', 'src/train/', 'src/recipes/', 'src/cli/'];
    const outside = (await projectImports('envs')).filter(([, target]) => upward.some((layer) => target.startsWith(layer)));
    expect(outside).toEqual([]);
  });

  it('envs/ has no training or guide folder: the policy side of an environment lives in its recipe', async () => {
    const folders = (await readdir(join(root, 'envs'), { recursive: true, withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((name) => /^(training|guide|guides)$/.test(name))).toEqual([]);
  });
});
