/**
 * The interpreter of the Python venv with the real frameworks (see scripts/python-venv.sh and
 * test/python/global-setup.ts), for the tests that run them.
 *
 * Returns the interpreter's path; `undefined` only when there is no local Python index, after
 * saying loudly which test file skips and why. Throws (failing the test file) when the venv
 * could not be built or `SQLENV_PYTHON` points at an interpreter without the modules named —
 * those are failures, not reasons to skip.
 *
 * @example
 * const PYTHON = frameworkPython('Gymnasium check_env', ['gymnasium']);
 * describe.runIf(PYTHON)('Gymnasium', () => { ... spawn(PYTHON!, [...]) ... });
 */
import { spawn, spawnSync } from 'node:child_process';

export function frameworkPython(what: string, modules: readonly string[]): string | undefined {
  const env = process.env;
  if (env['SQLENV_PYTHON_ERROR']) throw new Error(`${what}: the Python venv is not usable: ${env['SQLENV_PYTHON_ERROR']}`);
  const python = env['SQLENV_PYTHON'];
  if (!python) {
    const why = env['SQLENV_PYTHON_SKIP'] ?? 'SQLENV_PYTHON is not set (run the tests through vitest, whose global setup finds the venv)';
    console.warn(`*** SKIP ${what}: ${why} ***`);
    return undefined;
  }
  const check = spawnSync(
    python,
    ['-c', 'import importlib.util, sys; print(" ".join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))', ...modules],
    { encoding: 'utf8' },
  );
  if (check.status !== 0) throw new Error(`${what}: SQLENV_PYTHON=${python} does not run: ${check.error?.message ?? check.stderr}`);
  const missing = check.stdout.trim();
  if (missing) {
    throw new Error(`${what}: SQLENV_PYTHON=${python} lacks ${missing}; unset SQLENV_PYTHON to use scripts/python-venv.sh's venv, or install them there`);
  }
  return python;
}

/** What a Python run printed and its exit code (-1 when it could not start or died by a signal). */
export interface PythonRun {
  code: number;
  /** stdout and stderr interleaved, as a terminal shows them (with the spawn error, if any). */
  out: string;
  /** stdout alone, for scripts that answer on it (JSON reports). */
  stdout: string;
  /** stderr alone. */
  stderr: string;
}

/** Extra inputs of {@link runPython}. */
export interface PythonRunOptions {
  /** Environment variables on top of this process's. */
  env?: Record<string, string>;
  /** Written to the script's stdin, which is then closed (default: stdin closed at once). */
  stdin?: string;
}

/**
 * Run `python ARGS` in `cwd` without blocking the event loop (servers under test may live in this
 * process), with `PYTHONDONTWRITEBYTECODE` set so runs leave no `__pycache__` in the tree.
 *
 * @example
 * const { code, out } = await runPython(PYTHON, ['-m', 'unittest', 'tests.frameworks_gymnasium', '-v'], 'clients/python', { env: { SQLENV_URL: url } });
 * const { stdout } = await runPython(PYTHON, ['scripts/hf_tokenizer_reference.py'], '.', { stdin: JSON.stringify(request) });
 */
export function runPython(python: string, args: readonly string[], cwd: string, options: PythonRunOptions = {}): Promise<PythonRun> {
  return new Promise((resolve) => {
    const child = spawn(python, args, { cwd, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...options.env } });
    let out = '';
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      out += d.toString();
    });
    // A script that exits without reading all of stdin closes the pipe under the write: its exit
    // code tells what happened, so the EPIPE is not an error of its own.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin);
    child.on('error', (err) => resolve({ code: -1, out: `${out}${String(err)}`, stdout, stderr: `${stderr}${String(err)}` }));
    child.on('close', (code) => resolve({ code: code ?? -1, out, stdout, stderr }));
  });
}
