/**
 * `npm run bench`: runs every compiled `*.bench.js` beside this file (or those named on the
 * command line, e.g. `npm run bench -- gym sql`) and rewrites BENCHMARKS.md with the command,
 * the machine and each section.
 */
import { readdirSync, readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { cpus, totalmem, platform, arch } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchSection } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

const outFile = join(root, 'BENCHMARKS.md');
const fresh = new Map<string, string>();

const machine = `${platform()} ${arch()}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
for (const file of files) {
  const name = file.replace(/\.bench\.js$/, '');
  process.stdout.write(`bench ${name} …\n`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<BenchSection> };
  const t0 = performance.now();
  const section = await mod.default();
  const secs = ((performance.now() - t0) / 1000).toFixed(0);
  const stamp = `_Measured ${new Date().toISOString().slice(0, 10)} on ${machine} by \`npm run bench -- ${name}\` (${secs} s)._`;
  fresh.set(name, `## ${section.title}\n\n${stamp}\n\n${section.markdown.trim()}\n\n`);
  process.stdout.write(`${section.markdown.trim()}\n\n`);
}

// Read the file only now, after the (minutes-long) benches, and merge: sections of benches not
// run this time are kept, so `npm run bench -- gym` updates one section and two bench runs in
// parallel do not erase each other's results. The write is a rename, so readers never see half a file.
const previous = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
const sections = new Map<string, string>();
for (const m of previous.matchAll(/<!-- bench:(\S+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) {
  sections.set(m[1]!, m[2]!);
}
for (const [name, text] of fresh) sections.set(name, text);
const body = [...sections.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, text]) => `<!-- bench:${name} -->\n${text}<!-- /bench:${name} -->`)
  .join('\n\n');
const tmpFile = `${outFile}.${process.pid}.tmp`;
writeFileSync(
  tmpFile,
  `# Benchmarks\n\nRegenerate with \`npm run bench\` (all) or \`npm run bench -- NAME\` (one section). ` +
    `Each section names its command, machine and the reference measured beside it in the same run.\n\n${body}\n`,
);
renameSync(tmpFile, outFile);
console.log(`wrote ${outFile}`);
