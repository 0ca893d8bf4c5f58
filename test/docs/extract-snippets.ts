/** One ```ts block of a Markdown file. */
export interface Snippet {
  /** The Markdown file, relative to the repository root. */
  file: string;
  /** 1-based line of the block's first line of code. */
  line: number;
  /** The block's code, after the code of the blocks it continues. */
  code: string;
  /** Lines of `code` that come from earlier blocks (`<!-- snippet: continues -->`), checked with those. */
  preludeLines: number;
  /** Preceded by `<!-- snippet: fragment -->`: not a complete module, so not type-checked. */
  fragment: boolean;
  /** Preceded by `<!-- snippet: run -->`: run by the tests as written. */
  run: boolean;
}

/**
 * The ```ts blocks of a Markdown file with their line numbers and markers (the HTML comment on the
 * nearest non-blank line above the fence). A block marked `continues` carries on the walkthrough of
 * the block before it (its names in scope), so it is checked after that block's code.
 *
 * @example
 * ```ts
 * extractSnippets('README.md', text).filter((s) => s.run);
 * ```
 */
export function extractSnippets(file: string, markdown: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    let above = i - 1;
    while (above >= 0 && lines[above]!.trim() === '') above--;
    const marker = above >= 0 ? /^<!-- snippet: (fragment|run|continues) -->$/.exec(lines[above]!.trim())?.[1] : undefined;
    const code = lines.slice(i + 1, end).join('\n');
    const previous = marker === 'continues' ? snippets[snippets.length - 1] : undefined;
    if (marker === 'continues' && !previous) throw new Error(`${file}:${i + 1}: a block marked "continues" needs a ts block before it`);
    snippets.push({
      file,
      line: i + 2,
      code: previous ? `${previous.code}\n${code}` : code,
      preludeLines: previous ? previous.code.split('\n').length : 0,
      fragment: marker === 'fragment',
      run: marker === 'run',
    });
    i = end;
  }
  return snippets;
}
