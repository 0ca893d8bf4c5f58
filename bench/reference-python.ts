/**
 * The Python that runs the benches' PyTorch and TRL references: `SQLENV_PYTHON` if set, else the
 * venv of scripts/python-venv.sh (PyTorch 2.13 and TRL from the local package index, created once
 * and cached — what .ci/run and the framework tests use). Not `/usr/bin/python3`: Debian's
 * python3-torch there is 1.13, whose CPU kernels made the references up to 25× slower than the
 * torch a user would pick, and turned ours-vs-torch rows into noise.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../src/base/package-root.js';

/**
 * The venv's python, or undefined when the venv cannot be made (no local index): benches then say
 * so. Call it once per bench (a cached venv answers in about a second).
 *
 * @example
 * const python = referencePython(); // e.g. /root/.cache/sqlenv/venv-f75a1e4a4bf2/bin/python
 */
export function referencePython(): string | undefined {
  if (process.env['SQLENV_PYTHON']) return process.env['SQLENV_PYTHON'];
  const run = spawnSync('bash', [join(packageRoot(), 'scripts', 'python-venv.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return run.status === 0 ? run.stdout.trim().split('\n').pop() : undefined;
}
