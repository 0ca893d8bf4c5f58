import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageRequested } from '../../../src/cli/serve.js';

describe('parseServeArgs', () => {
  it('maps flags to server options and dataset kwargs', () => {
    const config = parseServeArgs(
      ['--env', 'SQLEnv-v0', '--port', '9000', '--host', '0.0.0.0', '--max-sessions', '8', '--session-timeout', '30', '--dataset', 'spider:/data/spider', '--split', 'dev', '--step-budget', '12', '--kwargs', '{"actionMode":"strict"}', '--validate-actions'],
      {},
    );
    expect(config).toMatchObject({ port: 9000, host: '0.0.0.0', imports: [] });
    expect(config.server).toMatchObject({
      envId: 'SQLEnv-v0',
      maxSessions: 8,
      sessionTimeoutMs: 30_000,
      actionValidation: 'space',
      envKwargs: { dataset: { kind: 'spider', dir: '/data/spider' }, split: 'dev', stepBudget: 12, actionMode: 'strict' },
    });
  });

  it('parses every dataset form and reads the token from SQLENV_TOKEN', () => {
    expect(parseServeArgs(['--dataset', 'bundled'], {}).server.envKwargs?.dataset).toBe('bundled');
    expect(parseServeArgs(['--dataset', 'bird:/b'], {}).server.envKwargs?.dataset).toEqual({ kind: 'bird', dir: '/b' });
    expect(parseServeArgs(['--dataset', './mydata'], {}).server.envKwargs?.dataset).toBe('./mydata');
    expect(parseServeArgs([], { SQLENV_TOKEN: 't' }).server.token).toBe('t');
    expect(parseServeArgs(['--token', 'u'], { SQLENV_TOKEN: 't' }).server.token).toBe('u');
  });

  it('maps --workers, --heartbeat and --reap-interval (seconds) to the options', () => {
    const config = parseServeArgs(['--workers', '3', '--heartbeat', '2.5', '--reap-interval', '0.5'], {});
    expect(config.workers).toBe(3);
    expect(config.server).toMatchObject({ heartbeatMs: 2500, reapIntervalMs: 500 });
    const defaults = parseServeArgs([], {});
    expect(defaults.workers).toBe(1);
    expect(defaults.server.heartbeatMs).toBe(30_000);
    expect(defaults.server).not.toHaveProperty('reapIntervalMs');
    expect(parseServeArgs(['--heartbeat', '0'], {}).server.heartbeatMs).toBe(0);
    expect(parseServeArgs(['--workers', 'auto'], {}).workers).toBeGreaterThanOrEqual(1);
    expect(() => parseServeArgs(['--workers', '0'], {})).toThrow(/--workers needs an integer ≥ 1/);
    expect(() => parseServeArgs(['--heartbeat=-1'], {})).toThrow(/--heartbeat needs a number of seconds ≥ 0/);
    expect(() => parseServeArgs(['--reap-interval', '0'], {})).toThrow(/--reap-interval needs a number of seconds ≥ 0.05/);
  });

  it('maps the SQLEnv query pool flags, leaving unset ones to the pool', () => {
    expect(parseServeArgs([], {}).queryPool).toEqual({});
    expect(parseServeArgs(['--query-workers', '3', '--query-spare', '0', '--query-max', '12'], {}).queryPool).toEqual({ size: 3, spare: 0, maxProcesses: 12 });
    expect(() => parseServeArgs(['--query-max', '0'], {})).toThrow(/--query-max needs an integer ≥ 1/);
  });

  it('maps the backpressure bounds', () => {
    expect(parseServeArgs(['--max-pending', '8', '--max-unsent-bytes', '65536', '--stall-timeout', '2.5'], {}).server).toMatchObject({ maxPendingRequests: 8, maxUnsentBytes: 65536, stallTimeoutMs: 2500 });
    expect(parseServeArgs([], {}).server).not.toHaveProperty('maxPendingRequests');
    expect(() => parseServeArgs(['--max-pending', '0'], {})).toThrow(/--max-pending needs an integer ≥ 1/);
  });

  it('explains bad values', () => {
    expect(() => parseServeArgs(['--port', 'abc'], {})).toThrow(/--port needs an integer/);
    expect(() => parseServeArgs(['--max-sessions', '0'], {})).toThrow(/--max-sessions needs an integer ≥ 1/);
    expect(() => parseServeArgs(['--kwargs', '[1]'], {})).toThrow(/JSON object/);
    expect(() => parseServeArgs(['--nope'], {})).toThrow();
    expect(() => parseServeArgs(['--help'], {})).toThrow(UsageRequested);
    expect(() => parseServeArgs(['--mode', 'prod'], {})).toThrow(/--mode must be simulation or production/);
  });

  it('serves in simulation mode unless --mode production', () => {
    expect(parseServeArgs([], {}).server.mode).toBe('simulation');
    expect(parseServeArgs(['--mode', 'production'], {}).server.mode).toBe('production');
  });
});
