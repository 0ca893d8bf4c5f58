/**
 * Every ```ts block of README.md and docs/ type-checks against the package as a user imports it
 * (`'sqlenv'`, `'sqlenv/train'`, …), so the documentation cannot drift from the code. A block that
 * is deliberately a fragment is preceded by `<!-- snippet: fragment -->` and skipped; one marked
 * `<!-- snippet: continues -->` is checked after the block before it (a walkthrough); a block
 * marked `<!-- snippet: run -->` is also run, against the bundled data.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SQLEnv, type SqlAction } from 'sqlenv';
import { extractSnippets, type Snippet } from './extract-snippets.js';

const root = join(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const snippets: Snippet[] = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))].flatMap((file) =>
  extractSnippets(relative(root, file), readFileSync(file, 'utf8')),
);

/** Type errors of each snippet, as `file:line: message` with the line in the Markdown file. */
function typeErrors(checked: Snippet[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('tsconfig.json could not be read');
  // Virtual files beside the docs, so that the package's module settings ("type": "module") apply.
  const virtual = new Map(checked.map((s, i) => [join(root, 'docs', `.snippet-${i}.ts`), s]));
  const options = { ...config.options, noEmit: true, noUnusedLocals: false };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => (virtual.has(f) ? `${virtual.get(f)!.code}\nexport {};\n` : readFile.call(host, f));
  host.getSourceFile = (f, languageVersion, ...rest) => {
    const snippet = virtual.get(f);
    return snippet ? ts.createSourceFile(f, `${snippet.code}\nexport {};\n`, languageVersion, true) : getSourceFile.call(host, f, languageVersion, ...rest);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  const errors: string[] = [];
  for (const [file, snippet] of virtual) {
    const source = program.getSourceFile(file)!;
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = d.start === undefined ? snippet.preludeLines : source.getLineAndCharacterOfPosition(d.start).line;
      if (line < snippet.preludeLines) continue; // reported with the block it continues
      errors.push(`${snippet.file}:${snippet.line + line - snippet.preludeLines}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    }
  }
  return errors;
}

describe('docs/', () => {
  it('hold no leftover "README section proposal" block (README.md is the one README)', () => {
    const stale = markdownFiles(join(root, 'docs')).filter((file) => /<!-- README section/.test(readFileSync(file, 'utf8')));
    expect(stale.map((file) => relative(root, file))).toEqual([]);
  });
});

describe('TypeScript snippets of README.md and docs/', () => {
  it('finds the snippets, the README quick start among them', () => {
    expect(snippets.length).toBeGreaterThan(10);
    expect(snippets.some((s) => s.file === 'README.md' && s.run)).toBe(true);
  });

  it('every snippet type-checks against the package imported by name', { timeout: 300_000 }, () => {
    expect(typeErrors(snippets.filter((s) => !s.fragment))).toEqual([]);
  });

  const dir = mkdtempSync(join(tmpdir(), 'sqlenv-snippets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const [i, snippet] of snippets.filter((s) => s.run).entries()) {
    it(`${snippet.file}:${snippet.line} runs against the bundled data as written`, { timeout: 120_000 }, async () => {
      const logged: unknown[][] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
      // Every SQLEnv step the snippet takes is watched: an error the environment answered (an
      // unknown table, say) is a broken example even when nothing throws.
      const answeredErrors: unknown[] = [];
      const step = SQLEnv.prototype.step;
      const watch = vi.spyOn(SQLEnv.prototype, 'step').mockImplementation(async function (this: SQLEnv, action: SqlAction) {
        const result = await step.call(this, action);
        const errorType = result[4]['error_type'];
        if (errorType !== null && errorType !== undefined) answeredErrors.push(errorType);
        return result;
      });
      try {
        const file = join(dir, `run-${i}.ts`);
        writeFileSync(file, snippet.code);
        await import(pathToFileURL(file).href);
      } finally {
        log.mockRestore();
        watch.mockRestore();
      }
      expect(answeredErrors).toEqual([]);
      expect(logged.length).toBeGreaterThan(0); // a run snippet shows what it did
    });
  }
});
