/** Regenerate the tool reference table in docs/sql.md from the tools' JSON Schemas. */
import { readFileSync, writeFileSync } from 'node:fs';
import { SQL_TOOL_SPECS, syncToolReference, toolReferenceMarkdown } from '../../envs/sql/tools/index.js';

const path = new URL('../../docs/sql.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = syncToolReference(before, toolReferenceMarkdown(SQL_TOOL_SPECS));
writeFileSync(path, after);
console.log(before === after ? 'docs/sql.md already in sync' : 'docs/sql.md updated');
