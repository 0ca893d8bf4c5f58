/**
 * Vitest global setup: find the Python venv the framework tests run on (TRL, Gymnasium,
 * transformers, PyTorch) once per test run, before any worker starts, and hand it to them in
 * the environment (`SQLENV_PYTHON`; workers inherit it).
 *
 * `SQLENV_PYTHON` already set (by `.ci/run`, or by a developer pointing at their own
 * interpreter) is used as is. Otherwise `scripts/python-venv.sh` builds or reuses the cached venv
 * (about a second when cached; a cold build takes minutes and shows its progress here). Without
 * a local index the tests that need it skip and say why (`SQLENV_PYTHON_SKIP`); a failed build
 * makes them fail with the reason (`SQLENV_PYTHON_ERROR`) instead of skipping.
 */
import { spawnSync } from 'node:child_process';

export default function setup(): void {
  const env = process.env;
  if (env['SQLENV_PYTHON'] || env['SQLENV_PYTHON_SKIP'] || env['SQLENV_PYTHON_ERROR']) return;
  const run = spawnSync('bash', ['scripts/python-venv.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const python = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status === 0 && python) {
    env['SQLENV_PYTHON'] = python;
  } else if (run.status === 2) {
    env['SQLENV_PYTHON_SKIP'] = 'no local Python index (file:///opt/pypi/simple); scripts/python-venv.sh had nothing to install from';
    console.warn(`\n*** Python framework tests (TRL, Gymnasium, transformers) will SKIP: ${env['SQLENV_PYTHON_SKIP']} ***\n`);
  } else {
    env['SQLENV_PYTHON_ERROR'] = `scripts/python-venv.sh failed (exit ${run.status ?? run.signal}); its log is above`;
  }
}
