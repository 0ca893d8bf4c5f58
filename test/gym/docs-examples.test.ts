// Runs the TypeScript examples of docs/gym.md, so the documentation cannot drift from the code.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { checkEnv, registry } from '../../src/gym/index.js';
import '../../envs/guess/index.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const GYM_ENTRY = fileURLToPath(new URL('../../src/gym/index.ts', import.meta.url));
const doc = readFileSync(new URL('../../docs/gym.md', import.meta.url), 'utf8');
const dir = useTempDirs('gym-docs-')();

/** The ```ts blocks of the section under `heading`. */
function blocks(heading: string): string[] {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/gym.md has no section '${heading}'`);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!.replaceAll("from 'sqlenv'", `from '${GYM_ENTRY}'`));
}

async function importModule(name: string, code: string): Promise<Record<string, unknown>> {
  const file = join(dir, name);
  writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

describe('docs/gym.md examples', () => {
  it('the short example plays GuessNumber-v0 to the end', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const [example] = blocks('A short example');
      await importModule('short-example.ts', example!);
      expect(log).toHaveBeenCalledWith('Correct!', expect.objectContaining({ l: expect.any(Number) as number }));
    } finally {
      log.mockRestore();
    }
  });

  it('"Write your own environment" defines an env that passes checkEnv and registers it', async () => {
    const [envModule, usage] = blocks('Write your own environment');
    const registered = registry.spec('GuessNumber-v0');
    try {
      const mod = await importModule('guess-from-docs.ts', envModule!);
      const GuessNumber = mod.GuessNumber as new (options?: object) => Parameters<typeof checkEnv>[0];
      expect(registry.spec('GuessNumber-v0').entryPoint({})).toBeInstanceOf(GuessNumber);
      await importModule(
        'usage-from-docs.ts',
        `import { checkEnv, make } from '${GYM_ENTRY}';\nimport { GuessNumber } from './guess-from-docs.ts';\n${usage!}`,
      );
      expect((await checkEnv(new GuessNumber({ renderMode: 'ansi' }))).warnings).toEqual([]);
    } finally {
      registry.register('GuessNumber-v0', registered); // restore the real toy env for other tests
    }
  });
});
