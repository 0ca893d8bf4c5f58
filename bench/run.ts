/**
 * `npm run bench`: runs every compiled `*.bench.js` beside this file but the slow ones (or exactly
 * those named on the command line, e.g. `npm run bench -- gym sql-env`) and rewrites their sections
 * of BENCHMARKS.md with the command, the machine and the results.
 */
import { readdirSync, readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { cpus, totalmem, platform, arch } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cpuVectorExtension } from '../src/base/cpu-features.js';
import type { BenchSection } from './harness.js';
import { mergeBenchSections } from './merge-sections.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const only = process.argv.slice(2);
/** Benches too slow for a plain `npm run bench` (train-demo: three full demo runs; vs-trl: four training runs and a Python venv): they run when named. */
const SLOW = new Set(['train-demo', 'vs-trl']);
const available = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .map((f) => f.replace(/\.bench\.js$/, ''))
  .sort();
const unknown = only.filter((o) => !available.includes(o));
if (unknown.length > 0) {
  console.error(`npm run bench: no bench named ${unknown.join(', ')}; the benches are ${available.join(', ')}`);
  process.exit(2);
}
// Names match exactly: `train` must not also run the half-hour `train-demo`.
const files = (only.length > 0 ? available.filter((n) => only.includes(n)) : available.filter((n) => !SLOW.has(n))).map((n) => `${n}.bench.js`);
if (only.length === 0) process.stdout.write(`(skipping ${[...SLOW].join(', ')}: slow; run it by name, e.g. npm run bench -- ${[...SLOW][0]})\n`);

const outFile = join(root, 'BENCHMARKS.md');
const fresh = new Map<string, string>();

const machine = `${platform()} ${arch()}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'} (${cpuVectorExtension()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
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

// Read the file only now, after the (minutes-long) benches, and merge: only the sections of the
// benches run are replaced, so `npm run bench -- gym` updates one section, two bench runs in
// parallel do not erase each other's results, and text written by hand (marked or not) stays.
// The write is a rename, so readers never see half a file.
const previous = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
const tmpFile = `${outFile}.${process.pid}.tmp`;
writeFileSync(tmpFile, mergeBenchSections(previous, fresh));
renameSync(tmpFile, outFile);
console.log(`wrote ${outFile}`);
