/**
 * Load: 128 concurrent WebSocket sessions × 200 steps each against the cheapest env
 * (GuessNumber-v0: integer actions, no schema validation), on loopback, half the clients JSON
 * and half MessagePack. Asserts zero errors and exact step accounting; latency is printed,
 * not asserted.
 */
import { expect, it } from 'vitest';
import { RemoteEnv } from '../../src/remote/index.js';
import '../../envs/guess/index.js';
import { useTestServer } from './fixtures/use-test-server.js';

const SESSIONS = 128;
const STEPS = 200;

const server = useTestServer({ envId: 'GuessNumber-v0', envKwargs: { maxNumber: 1000 }, maxSessions: SESSIONS });

/** The q-quantile of sorted samples. */
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

it(`${SESSIONS} concurrent WebSocket sessions × ${STEPS} steps, zero errors`, async () => {
  const schema = await RemoteEnv.fetchSchema(server().url);
  const latencies: number[] = [];
  const errors: unknown[] = [];
  const started = performance.now();
  const totals = await Promise.all(
    Array.from({ length: SESSIONS }, async (_, i) => {
      const env = new RemoteEnv<string, number>(server().url, { schema, encoding: i % 2 ? 'msgpack' : 'json' });
      try {
        await env.reset({ seed: i });
        let steps = 0;
        for (let s = 0; s < STEPS; s++) {
          const t0 = performance.now();
          const [obs, , terminated, truncated] = await env.step(env.actionSpace.sample());
          latencies.push(performance.now() - t0);
          if (typeof obs === 'string' && obs.length > 0) steps++;
          if (terminated || truncated) await env.reset();
        }
        return steps;
      } catch (err) {
        errors.push(err);
        return -1;
      } finally {
        await env.close();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `load: ${SESSIONS}×${STEPS} steps in ${seconds.toFixed(2)} s (${((SESSIONS * STEPS) / seconds).toFixed(0)} steps/s), ` +
      `p50 ${quantile(latencies, 0.5).toFixed(2)} ms, p99 ${quantile(latencies, 0.99).toFixed(2)} ms`,
  );
  expect(errors).toEqual([]);
  expect(totals).toEqual(new Array(SESSIONS).fill(STEPS));
  expect(latencies).toHaveLength(SESSIONS * STEPS);
  expect(server().metrics.render()).toMatch(new RegExp(`^sqlenv_steps_total ${SESSIONS * STEPS}$`, 'm'));
  expect(server().metrics.render()).not.toMatch(/sqlenv_errors_total\{/);
});
