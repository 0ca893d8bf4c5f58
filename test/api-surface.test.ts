/**
 * Each subpath exports exactly the names docs/api.md lists for it (values and types alike), so
 * the public API changes only on purpose, with its documentation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs', 'api.md'), 'utf8');
const sections = [...doc.matchAll(/<!-- exports (\S+) -->([\s\S]*?)<!-- \/exports -->/g)].map((m) => ({ file: m[1]!, text: m[2]! }));

/** Every name a module exports, types included, as the compiler sees it. */
function exportedNames(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files.map((f) => join(root, f)), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  return new Map(
    files.map((f) => {
      const source = program.getSourceFile(join(root, f));
      const symbol = source && checker.getSymbolAtLocation(source);
      return [f, symbol ? checker.getExportsOfModule(symbol).map((s) => s.getName()).sort() : []];
    }),
  );
}

describe('public API by subpath (docs/api.md)', () => {
  it('documents the root and every subpath package.json exports', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { types?: string }> };
    const subpaths = Object.values(pkg.exports).flatMap((e) => (e.types ? [e.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts')] : []));
    expect(subpaths).toEqual(expect.arrayContaining(['src/index.ts', 'src/train/index.ts', 'src/lm/index.ts', 'src/onnx/index.ts', 'src/recipes/index.ts']));
    expect(sections.map((s) => s.file).sort()).toEqual(subpaths.sort());
  });

  const exported = exportedNames(sections.map((s) => s.file));
  for (const { file, text } of sections) {
    it(`${file} exports exactly the names docs/api.md lists`, () => {
      const documented = [...new Set([...text.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]!))].sort();
      const actual = exported.get(file)!;
      expect(actual.length).toBeGreaterThan(0);
      expect({ undocumented: actual.filter((n) => !documented.includes(n)), notExported: documented.filter((n) => !actual.includes(n)) }).toEqual({ undocumented: [], notExported: [] });
    });
  }
});
