/** The helper the Python-backed tests share: stdin in, stdout and stderr kept apart and together. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runPython } from './venv.js';

const PYTHON = ['python3', process.env['SQLENV_PYTHON']].find((p) => p && spawnSync(p, ['-c', 'pass']).status === 0);

describe.runIf(PYTHON)('runPython', () => {
  it('feeds stdin and returns stdout, stderr and both interleaved, with the exit code and the env', async () => {
    const script = 'import os, sys; print(sys.stdin.read().upper()); print("warn", file=sys.stderr); sys.exit(int(os.environ["CODE"]))';
    const run = await runPython(PYTHON!, ['-c', script], '.', { env: { CODE: '3' }, stdin: '{"a": 1}' });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('{"A": 1}\n');
    expect(run.stderr).toBe('warn\n');
    expect(run.out).toContain('{"A": 1}');
    expect(run.out).toContain('warn');
  });

  it('closes stdin when there is none, so a script reading it does not wait', async () => {
    const run = await runPython(PYTHON!, ['-c', 'import sys; print(len(sys.stdin.read()))'], '.');
    expect(run).toMatchObject({ code: 0, stdout: '0\n', stderr: '' });
  });

  it('reports an interpreter that cannot start as code -1 with the reason', async () => {
    const run = await runPython('/nonexistent/python', ['-c', 'pass'], '.');
    expect(run.code).toBe(-1);
    expect(run.stderr).toMatch(/ENOENT/);
  });
});
