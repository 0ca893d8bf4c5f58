import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCommandArgs } from '../../src/cli/command-args.js';

const options = { json: { type: 'boolean' as const, default: false }, help: { type: 'boolean' as const, short: 'h', default: false } };

describe('parseCommandArgs', () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns the parsed values', () => {
    const parsed = parseCommandArgs('eval', 'usage', { args: ['--json'], options });
    expect(parsed.ok && parsed.args.values.json).toBe(true);
  });

  it('answers an unknown flag with the error and the usage on stderr, exit 2', () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(parseCommandArgs('eval', 'usage: sqlenv eval', { args: ['--bogus'], options })).toEqual({ ok: false, exitCode: 2 });
    expect(err.mock.calls[0]![0]).toMatch(/^sqlenv eval: Unknown option '--bogus'[\s\S]*usage: sqlenv eval/);
  });

  it('prints the usage for --help and -h, exit 0', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(parseCommandArgs('eval', 'usage: x', { args: ['-h'], options })).toEqual({ ok: false, exitCode: 0 });
    expect(log).toHaveBeenCalledWith('usage: x');
  });
});
