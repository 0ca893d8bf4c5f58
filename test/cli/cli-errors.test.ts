/**
 * What `sqlenv` prints when a command cannot go on: one line that says what to do, never a
 * stack trace; `sqlenv train` without a config prints its usage instead of starting a run; and
 * `sqlenv serve` answers a port in use or an unknown split with such a line (real processes).
 */
import { spawn } from 'node:child_process';
import { createServer as createNetServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cliErrorLine, CliUsageError } from '../../src/cli/cli-error.js';
import { run as trainCli } from '../../src/cli/train.js';
import { DatasetError } from '../../envs/sql/datasets/dataset-error.js';

afterEach(() => vi.restoreAllMocks());

const systemError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('cliErrorLine', () => {
  it("prints the project's own errors as one line, without a stack", () => {
    const line = cliErrorLine('eval', new DatasetError('no split "x" in /d.\nSplits here: eval, train.'), {});
    expect(line).toBe('sqlenv eval: no split "x" in /d. Splits here: eval, train.');
    expect(cliErrorLine('serve', new CliUsageError('--port needs an integer ≥ 0, got "x"'), {})).toBe('sqlenv serve: --port needs an integer ≥ 0, got "x"');
  });

  it('gives system errors a user causes their fix', () => {
    const inUse = systemError('listen EADDRINUSE: address already in use 127.0.0.1:8000', { code: 'EADDRINUSE', syscall: 'listen', address: '127.0.0.1', port: 8000 });
    expect(cliErrorLine('serve', inUse, {})).toBe('sqlenv serve: port 8000 on 127.0.0.1 is already in use: stop what holds it, or pass another --port (0 picks a free one)');
    const denied = systemError('listen EACCES: permission denied 0.0.0.0:80', { code: 'EACCES', syscall: 'listen', address: '0.0.0.0', port: 80 });
    expect(cliErrorLine('serve', denied, {})).toMatch(/^sqlenv serve: no permission to listen on port 80 on 0\.0\.0\.0: pass a --port above 1023/);
    const missing = systemError("ENOENT: no such file or directory, open 'cfg.json'", { code: 'ENOENT', syscall: 'open', path: 'cfg.json' });
    expect(cliErrorLine('train', missing, {})).toBe('sqlenv train: cfg.json does not exist: check the path');
    const badHost = systemError('listen EADDRNOTAVAIL', { code: 'EADDRNOTAVAIL', syscall: 'listen', address: '10.9.9.9', port: 8000 });
    expect(cliErrorLine('serve', badHost, {})).toMatch(/^sqlenv serve: 10\.9\.9\.9 is not an address of this machine: pass --host 127\.0\.0\.1/);
  });

  it('says how to get the stack of an unexpected error, and shows it under SQLENV_DEBUG', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    expect(cliErrorLine('play', bug, {})).toBe("sqlenv play: Cannot read properties of undefined (reading 'x') (unexpected: rerun with SQLENV_DEBUG=1 for the stack trace, and report it)");
    expect(cliErrorLine('play', bug, { SQLENV_DEBUG: '1' })).toContain('    at ');
  });
});

/** What the command prints, line by line: console.error's and console.log's (restored after each test). */
function captureConsole(): { errors: string[]; lines: string[] } {
  const errors: string[] = [];
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((s: unknown) => void errors.push(String(s)));
  vi.spyOn(console, 'log').mockImplementation((s: unknown) => void lines.push(String(s)));
  return { errors, lines };
}

describe('sqlenv train without a config', () => {
  it('prints its usage and exits 2 instead of starting a run; --defaults resolves the built-in config', async () => {
    const { errors, lines } = captureConsole();
    expect(await trainCli([])).toBe(2);
    expect(await trainCli(['--set', 'grpo.steps=1'])).toBe(2);
    expect(errors[0]).toMatch(/^sqlenv train: no --config FILE given \(or --defaults to train with the built-in defaults\)\n\nusage: sqlenv train \(--config FILE \| --defaults\)/);
    expect(errors[0]).toContain('examples/grpo-sql/config.json');
    expect(await trainCli(['--config', 'examples/grpo-sql/config.json', '--defaults'])).toBe(2);
    expect(errors[2]).toBe('sqlenv train: pass --config FILE or --defaults, not both');
    expect(lines).toEqual([]);
    expect(await trainCli(['--defaults', '--print-config'])).toBe(0);
    expect(JSON.parse(lines[0]!).grpo.steps).toBeGreaterThan(0);
    expect(await trainCli(['--config', 'examples/grpo-sql/config.json', '--print-config'])).toBe(0);
    expect(JSON.parse(lines[1]!).runDir).toBe('runs/grpo-sql-demo');
  });
});

describe("sqlenv train and the SQL recipe's section", () => {
  it('resolves, lists and validates the sql section; an old path is told its new one', async () => {
    const { errors, lines } = captureConsole();
    expect(await trainCli(['--config', 'examples/grpo-sql/config.json', '--print-config'])).toBe(0);
    expect(JSON.parse(lines[0]!).sql).toMatchObject({ compactTools: true, generated: { split: 'adapt_practice', heldOutSplit: 'adapt_heldout', seed: -1 }, sft: { describeTables: false } });
    expect(await trainCli(['--options'])).toBe(0);
    expect(lines[1]).toMatch(/^\| `sql\.sft\.rehearsals` \|/m);
    expect(await trainCli(['--defaults', '--set', 'env.generated.split="p"', '--set', 'sql.sft.mistakeshare=0.5'])).toBe(2);
    expect(errors).toEqual([
      'sqlenv train: invalid training config:\n' +
        '  - option "env.generated" has moved to "sql.generated" (the sql recipe\'s section): write it there instead\n' +
        '  - unknown option "sql.sft.mistakeshare" — did you mean "mistakeShare"?',
    ]);
  });
});

/** `sqlenv ARGS` from the sources; resolves with its exit code and output once it exits. */
function sqlenv(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { env: { ...process.env, SQLENV_DEBUG: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('sqlenv serve errors (processes)', () => {
  let holder: Server | undefined;
  afterEach(() => holder?.close());

  it('answers a port in use with one line and exit 1', async () => {
    holder = createNetServer();
    const port = await new Promise<number>((resolve) => holder!.listen(0, '127.0.0.1', () => resolve((holder!.address() as { port: number }).port)));
    const { code, stderr } = await sqlenv(['serve', '--env', 'GuessNumber-v0', '--port', String(port), '--quiet']);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`sqlenv serve: port ${port} on 127.0.0.1 is already in use: stop what holds it, or pass another --port (0 picks a free one)`);
  });

  it("with --workers, exits 1 with the port line and the primary's one-line summary, no stack trace", async () => {
    holder = createNetServer();
    const port = await new Promise<number>((resolve) => holder!.listen(0, '127.0.0.1', () => resolve((holder!.address() as { port: number }).port)));
    const { code, stderr } = await sqlenv(['serve', '--env', 'GuessNumber-v0', '--workers', '2', '--port', String(port), '--quiet']);
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines[0]).toBe(`sqlenv serve: port ${port} on 127.0.0.1 is already in use: stop what holds it, or pass another --port (0 picks a free one)`);
    expect(lines.at(-1)).toMatch(/^sqlenv serve: worker \d exited \(code 1\) before listening; see its error above$/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('answers an unknown split with one line naming the splits (no build-info), exit 1', async () => {
    const { code, stderr } = await sqlenv(['serve', '--split', 'nope', '--port', '0', '--quiet', '--query-workers', '1']);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^sqlenv serve: no split "nope" in .*Splits here: eval, eval_unseen_db, smoke, train, validation, validation_unseen_db\.\n$/);
  });
});
