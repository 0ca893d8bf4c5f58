import { describe, expect, it } from 'vitest';
import { PendingCalls } from '../../src/base/pending-calls.js';

describe('PendingCalls', () => {
  it('numbers calls and settles each with its own answer, in any order', async () => {
    const calls = new PendingCalls<string>();
    const sent: number[] = [];
    const a = calls.call('a', (id) => sent.push(id));
    const b = calls.call('b', (id) => sent.push(id));
    expect(sent).toEqual([0, 1]);
    expect(calls.resolve(1, 'B')).toBe(true);
    expect(calls.reject(0, (label) => new Error(`${label} failed`))).toBe(true);
    await expect(b).resolves.toBe('B');
    await expect(a).rejects.toThrow('a failed');
    expect(calls.size).toBe(0);
    expect(calls.resolve(1, 'again')).toBe(false);
  });

  it('rejects everything outstanding at once, and fires a timeout only for calls still waiting', async () => {
    const calls = new PendingCalls<number>();
    const timedOut: string[] = [];
    const answered = calls.call('fast', () => undefined, { ms: 5, onTimeout: () => timedOut.push('fast') });
    calls.resolve(0, 1);
    await expect(answered).resolves.toBe(1);
    const slow = calls.call('slow', () => undefined, { ms: 5, onTimeout: () => timedOut.push('slow') });
    await new Promise((r) => setTimeout(r, 20));
    expect(timedOut).toEqual(['slow']);
    calls.rejectAll(new Error('worker exited'));
    await expect(slow).rejects.toThrow('worker exited');
    expect(calls.size).toBe(0);
  });
});
