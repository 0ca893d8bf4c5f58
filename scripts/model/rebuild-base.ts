/**
 * Rebuilds the bundled base `models/tiny-sql` from nothing and checks it, file by file, against
 * the shipped one: `npm run model:pretrain`.
 *
 * The shipped files were made in steps, each by the code of its own commit:
 *
 * 1. 5e1431b, `pretrain-base`: a fresh 1.05M-parameter model and its BPE tokenizer, trained to
 *    write the gold SQL of `train`'s first 1,758 questions as a `query` call (16 epochs).
 * 2. 30c5164, `procedural-stage`: the demo's SFT of that day on 4,800 easy questions of 600
 *    procedurally generated databases, 2 epochs, from step 1's model.
 * 3. a82c586: `tokenizer_config.json` names the tokenizer class transformers loads; no weight changed.
 *
 * Today's code trains the same recipes with different float rounding (the training graphs have
 * been made cheaper since), which gives a model of the same kind but not the same bits. So each
 * step runs the code of its commit: checked out into a temporary git worktree, compiled, and run
 * with this checkout's `node_modules` (after checking that the commit's lockfile asks for exactly
 * the versions installed here). One onnxruntime thread throughout, as the scripts of those commits
 * use. onnxruntime picks its kernels by the CPU's instruction set, and 1,760 steps of training
 * carry a difference in the last bit of a sum to every weight: the bits are the shipped ones on a
 * CPU of the kind they were made on, and elsewhere the same recipe ends in other weights
 * (docs/experiments/history.md, "The bundled base, rebuilt", lists the CPUs measured).
 *
 * Options: --out DIR (default models/tiny-sql-rebuilt; never the shipped directory unless named),
 * --work DIR (worktrees and the steps' outputs, default runs/rebuild-base), --reference DIR (what
 * to compare with, default models/tiny-sql), --keep-work (leave the worktrees for inspection).
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../../src/base/package-root.js';
import { SqlenvError } from '../../src/base/sqlenv-error.js';
import { runWhenExecuted } from './run-when-executed.js';
import { stringFlags } from './string-flags.js';

const execFileAsync = promisify(execFile);

/** A rebuild that cannot go on: what is missing and what to do. */
export class RebuildBaseError extends SqlenvError {}

/** One training step of the bundled base: a script of a commit, run from the previous step's model. */
export interface TrainingStep {
  name: string;
  commit: string;
  /** The compiled script, relative to the commit's package root. */
  script: string;
  /** Its arguments: `from` is the previous step's model directory (undefined for the first step). */
  args(from: string | undefined, out: string, runDir: string): string[];
}

/** The steps that made the shipped weights, in order. */
export const SHIPPED_TRAINING_STEPS: readonly TrainingStep[] = [
  {
    name: 'query pre-training (1,758 train questions × 16 epochs)',
    commit: '5e1431b4d22dee34fe40a4d88c8f2ab432127e3b',
    script: 'dist/examples/grpo-sql/pretrain-base.js',
    args: (_from, out) => ['--out', out],
  },
  {
    name: 'procedural stage (4,800 questions of 600 procedural databases × 2 epochs)',
    commit: '30c5164d2d421ae8e509de473f2390013537244a',
    script: 'dist/examples/grpo-sql/procedural-stage.js',
    args: (from, out, runDir) => ['--from', from!, '--out', out, '--run-dir', runDir],
  },
];

/** Files taken as a later commit left them, after training (step 3 above). */
export const SHIPPED_FILE_FIXES: readonly { file: string; commit: string }[] = [
  { file: 'tokenizer_config.json', commit: 'a82c5863e614a99119f9a2b1c196878cfd8dcfc8' },
];

/** Options of {@link rebuildBase}. */
export interface RebuildOptions {
  out: string;
  work: string;
  reference: string;
  keepWork: boolean;
  steps: readonly TrainingStep[];
  /** Extra arguments per step (tests shrink the runs with them). */
  extraArgs?: readonly (readonly string[])[];
  print: (line: string) => void;
}

/** One file of the rebuilt directory against the reference. */
export interface FileComparison {
  file: string;
  identical: boolean;
  sha256: string;
  referenceSha256: string | undefined;
}

/**
 * The packages whose version a commit's lockfile pins differently from the installed lockfile:
 * running that commit's code on these `node_modules` would not be running the commit.
 *
 * @example
 * ```ts
 * lockfileMismatches({ packages: { 'node_modules/ajv': { version: '8.1.0' } } }, { packages: { 'node_modules/ajv': { version: '8.2.0' } } });
 * // ['ajv: 8.1.0 in the commit, 8.2.0 installed']
 * ```
 */
export function lockfileMismatches(commitLock: unknown, installedLock: unknown): string[] {
  const packagesOf = (lock: unknown): Record<string, { version?: string }> => ((lock as { packages?: Record<string, { version?: string }> }).packages ?? {});
  const installed = packagesOf(installedLock);
  const out: string[] = [];
  for (const [path, entry] of Object.entries(packagesOf(commitLock))) {
    if (!path.startsWith('node_modules/')) continue;
    const have = installed[path]?.version;
    if (have !== entry.version) out.push(`${path.slice('node_modules/'.length)}: ${entry.version ?? '?'} in the commit, ${have ?? 'not'} installed`);
  }
  return out;
}

async function git(root: string, args: string[]): Promise<string> {
  return (await execFileAsync('git', ['-C', root, ...args], { maxBuffer: 256 * 1024 * 1024 })).stdout;
}

/** Checks out `commit` into `dir` as a detached worktree with this checkout's node_modules, compiled. */
async function prepareWorktree(root: string, commit: string, dir: string): Promise<void> {
  try {
    await git(root, ['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    throw new RebuildBaseError(
      `commit ${commit.slice(0, 7)} is not in this repository, and the shipped weights were trained by its code: ` +
        'rebuild from a git clone with its history (not a tarball or a --depth clone; `git fetch --unshallow` completes one)',
    );
  }
  const mismatches = lockfileMismatches(JSON.parse(await git(root, ['show', `${commit}:package-lock.json`])), JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')));
  if (mismatches.length) {
    throw new RebuildBaseError(
      `the installed packages are not those commit ${commit.slice(0, 7)} ran with (${mismatches.slice(0, 3).join('; ')}${mismatches.length > 3 ? '; …' : ''}): ` +
        `check the commit out yourself and run \`npm ci\` there`,
    );
  }
  await rm(dir, { recursive: true, force: true });
  await git(root, ['worktree', 'prune']);
  await git(root, ['worktree', 'add', '--detach', '--force', dir, commit]);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  await execFileAsync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
}

async function removeWorktree(root: string, dir: string): Promise<void> {
  await git(root, ['worktree', 'remove', '--force', dir]).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
  await git(root, ['worktree', 'prune']).catch(() => undefined);
}

/** Runs a step's script, passing its output lines on as they come. */
async function runStep(dir: string, script: string, args: string[], print: (line: string) => void): Promise<void> {
  await new Promise<void>((resolveRun, reject) => {
    const child = spawn(process.execPath, [join(dir, script), ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const forward = (chunk: Buffer) => {
      const text = tail + chunk.toString('utf8');
      const lines = text.split('\n');
      tail = lines.pop() ?? '';
      for (const l of lines) print(`  ${l}`);
    };
    child.stdout.on('data', forward);
    child.stderr.on('data', forward);
    child.on('error', reject);
    child.on('close', (code) => {
      if (tail) print(`  ${tail}`);
      if (code === 0) resolveRun();
      else reject(new RebuildBaseError(`${script} of the step exited with code ${code} (its output is above)`));
    });
  });
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * Compares every file of `dir` with the same file in `reference`.
 *
 * @example
 * ```ts
 * (await compareModelDirs('models/tiny-sql-rebuilt', 'models/tiny-sql')).every((f) => f.identical);
 * ```
 */
export async function compareModelDirs(dir: string, reference: string): Promise<FileComparison[]> {
  const files = (await readdir(dir)).sort();
  return files.map((file) => {
    const hash = sha256(join(dir, file));
    const ref = existsSync(join(reference, file)) ? sha256(join(reference, file)) : undefined;
    return { file, identical: hash === ref, sha256: hash, referenceSha256: ref };
  });
}

/**
 * Runs the training steps in order, each by its commit's code, writes the result to `out`
 * (built beside it and renamed into place) and compares it with `reference`.
 *
 * @example
 * ```ts
 * const files = await rebuildBase({ out: 'models/tiny-sql-rebuilt', work: 'runs/rebuild-base', reference: 'models/tiny-sql', keepWork: false, steps: SHIPPED_TRAINING_STEPS, print: console.log });
 * ```
 */
export async function rebuildBase(o: RebuildOptions): Promise<FileComparison[]> {
  const root = packageRoot();
  const out = resolve(o.out);
  if (out === resolve(o.reference)) throw new RebuildBaseError(`--out is the reference directory (${o.reference}): write the rebuild elsewhere and compare`);
  const work = resolve(o.work);
  await mkdir(work, { recursive: true });
  const started = Date.now();
  let from: string | undefined;
  // The worktree of the step under way: removed in `finally` when the step fails, not only when it ends.
  let worktree: string | undefined;
  try {
    for (const [i, step] of o.steps.entries()) {
      worktree = join(work, `source-${step.commit.slice(0, 7)}`);
      const model = join(work, `model-${i + 1}`);
      o.print(`step ${i + 1}/${o.steps.length}: ${step.name}, by the code of ${step.commit.slice(0, 7)}`);
      await prepareWorktree(root, step.commit, worktree);
      const t0 = Date.now();
      await runStep(worktree, step.script, [...step.args(from, model, join(work, `run-${i + 1}`)), ...(o.extraArgs?.[i] ?? [])], o.print);
      o.print(`step ${i + 1} took ${((Date.now() - t0) / 60000).toFixed(1)} min`);
      if (!o.keepWork) await removeWorktree(root, worktree);
      worktree = undefined;
      from = model;
    }
    if (from === undefined) throw new RebuildBaseError('no training steps to run');
    const staging = `${out}.tmp-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await cp(from, staging, { recursive: true });
    for (const fix of SHIPPED_FILE_FIXES) {
      if (existsSync(join(staging, fix.file))) await writeFile(join(staging, fix.file), await git(root, ['show', `${fix.commit}:models/tiny-sql/${fix.file}`]));
    }
    await rm(out, { recursive: true, force: true });
    await rename(staging, out);
  } finally {
    if (!o.keepWork && worktree !== undefined) await removeWorktree(root, worktree);
  }
  const files = await compareModelDirs(out, o.reference);
  o.print(`wrote ${o.out} in ${((Date.now() - started) / 60000).toFixed(1)} min; against ${o.reference}:`);
  for (const f of files) o.print(`  ${f.identical ? 'identical' : 'DIFFERS  '} ${f.file}${f.identical ? '' : ` (sha256 ${f.sha256.slice(0, 12)}, reference ${f.referenceSha256?.slice(0, 12) ?? 'absent'})`}`);
  if (files.some((f) => f.file === 'model.safetensors' && !f.identical)) {
    o.print('The weights differ: onnxruntime chooses its kernels by the CPU\'s instruction set, so the same code trains other bits on another kind of CPU. ' +
      'docs/experiments/history.md ("The bundled base, rebuilt") lists the CPUs measured; the rebuilt directory is a base of the same recipe, usable with --set model.path=DIR.');
  }
  return files;
}

/** CLI entry: parses the flags and runs {@link rebuildBase}; exit code 0 only when every file is identical. */
export async function main(argv: string[]): Promise<number> {
  const keepWork = argv.includes('--keep-work');
  const { str } = stringFlags(argv.filter((a) => a !== '--keep-work'), ['out', 'work', 'reference'], (message) => new RebuildBaseError(message));
  const files = await rebuildBase({
    out: str('out', join(packageRoot(), 'models', 'tiny-sql-rebuilt')),
    work: str('work', join('runs', 'rebuild-base')),
    reference: str('reference', join(packageRoot(), 'models', 'tiny-sql')),
    keepWork,
    steps: SHIPPED_TRAINING_STEPS,
    print: (line) => console.log(line),
  });
  return files.every((f) => f.identical) ? 0 : 3;
}

runWhenExecuted(import.meta.url, main);
