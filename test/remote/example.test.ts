import { expect, it } from 'vitest';
import { runRemoteClient } from '../../examples/remote-client.js';

it('examples/remote-client.ts solves GuessNumber over WebSocket and HTTP', async () => {
  for (const transport of ['ws', 'http'] as const) {
    const report = await runRemoteClient({ episodes: 2, transport, encoding: transport === 'ws' ? 'msgpack' : 'json' });
    expect(report.tools).toEqual([]);
    expect(report.episodes).toHaveLength(2);
    // Bisection over 1..100 needs at most 7 guesses, within the 10-step limit.
    for (const e of report.episodes) {
      expect(e.solved).toBe(true);
      expect(e.steps).toBeLessThanOrEqual(7);
    }
  }
});
