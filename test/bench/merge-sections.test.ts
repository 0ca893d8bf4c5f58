import { describe, expect, it } from 'vitest';
import { BENCHMARKS_HEADER, mergeBenchSections } from '../../bench/merge-sections.js';

const FILE = [
  '# Benchmarks',
  '',
  'Intro written by hand.',
  '',
  '<!-- bench:gym -->',
  '## Gym',
  '',
  'old gym numbers',
  '',
  '<!-- /bench:gym -->',
  '',
  '## A hand-written section without markers',
  '',
  'Kept: no bench owns it.',
  '',
  '<!-- bench:trainer-gpu -->',
  '## Marked by hand, produced by no bench',
  '<!-- /bench:trainer-gpu -->',
  '',
  '<!-- bench:train -->',
  '## Train',
  '',
  'old train numbers',
  '',
  '<!-- /bench:train -->',
  '',
  'Closing notes.',
  '',
].join('\n');

describe('mergeBenchSections (npm run bench writing BENCHMARKS.md)', () => {
  it('replaces the sections of the benches run in place and keeps every other byte', () => {
    const merged = mergeBenchSections(FILE, new Map([['gym', '## Gym\n\nnew gym numbers\n\n']]));
    expect(merged).toBe(FILE.replace('old gym numbers', 'new gym numbers'));
  });

  it('keeps unmarked and hand-marked sections when several benches run', () => {
    const merged = mergeBenchSections(FILE, new Map([['train', '## Train\n\nnew train\n'], ['gym', '## Gym\n\nnew gym\n']]));
    expect(merged).toContain('## A hand-written section without markers\n\nKept: no bench owns it.');
    expect(merged).toContain('Intro written by hand.');
    expect(merged).toContain('Closing notes.');
    expect(merged).toContain('<!-- bench:trainer-gpu -->\n## Marked by hand, produced by no bench\n<!-- /bench:trainer-gpu -->');
    expect(merged).toContain('<!-- bench:train -->\n## Train\n\nnew train\n<!-- /bench:train -->');
    expect(merged).not.toContain('old');
  });

  it('adds a bench with no section yet after the last marked section, in name order', () => {
    const merged = mergeBenchSections(FILE, new Map([['sql-env', '## SQL\n\ns\n'], ['onnx', '## ONNX\n\no\n']]));
    expect(merged).toBe(
      FILE.replace(
        'old train numbers\n\n<!-- /bench:train -->',
        'old train numbers\n\n<!-- /bench:train -->\n\n<!-- bench:onnx -->\n## ONNX\n\no\n<!-- /bench:onnx -->\n\n<!-- bench:sql-env -->\n## SQL\n\ns\n<!-- /bench:sql-env -->',
      ),
    );
  });

  it('starts a missing or empty file with the title, and appends to a file without markers', () => {
    expect(mergeBenchSections('', new Map([['gym', '## Gym\n']]))).toBe(`${BENCHMARKS_HEADER}\n<!-- bench:gym -->\n## Gym\n<!-- /bench:gym -->\n`);
    expect(mergeBenchSections('# Mine\n\nNotes.', new Map([['gym', '## Gym']]))).toBe('# Mine\n\nNotes.\n\n<!-- bench:gym -->\n## Gym\n<!-- /bench:gym -->\n');
  });

  it('writes bench output with $ signs literally', () => {
    const merged = mergeBenchSections(FILE, new Map([['gym', "## Gym\n\ncost $1 $& $' $$\n"]]));
    expect(merged).toContain("cost $1 $& $' $$\n<!-- /bench:gym -->");
  });

  it('is idempotent: merging the same results twice changes nothing', () => {
    const fresh = new Map([['gym', '## Gym\n\nx\n\n'], ['new-one', '## New\n\ny\n\n']]);
    const once = mergeBenchSections(FILE, fresh);
    expect(mergeBenchSections(once, fresh)).toBe(once);
  });
});
