import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { SQL_ERROR_TYPES, SQLEnv } from '../../envs/sql/index.js';
import { useFixtureEnv } from './fixture-env.js';
import { PATHOLOGICAL_ACTIONS } from './pathological-actions.js';

const VALID_ACTIONS: unknown[] = [
  { name: 'describe', arguments: { table_name: 'singer' } },
  { name: 'sample', arguments: { table_name: 'concert', n: 3 } },
  { name: 'query', arguments: { sql: 'SELECT name, age FROM singer WHERE age > 30' } },
  { name: 'answer', arguments: { value: [['Joe Sharp', 52]] } },
  'DESCRIBE stadium',
  'QUERY: SELECT count(*) FROM concert',
  '<tool_call>{"name": "sample", "arguments": {"table_name": "singer"}}</tool_call>',
  'describe(table_name="concert")',
  { type: 'function', function: { name: 'query', arguments: '{"sql": "SELECT 1"}' } },
  { action_type: 'ANSWER', argument: '6' },
];
const ALPHABET = ' {}[]()<>"\':,;=\\/*-_\n\tabcdeqrstuvwxyzSELECTFROMWHERE0123456789é漢😀\u0000';
const TOOL_WORDS = ['describe', 'sample', 'query', 'answer', 'DROP', 'tool_call', 'name', 'arguments', 'sql', 'value', 'table_name', 'null'];

/** A random JSON-ish value, up to `depth` levels deep. */
function randomValue(rng: Rng, depth: number): unknown {
  switch (rng.int(depth > 0 ? 8 : 5)) {
    case 0:
      return null;
    case 1:
      return rng.int(3) === 0 ? rng.normal() * 1e6 : rng.int(40) - 5;
    case 2:
      return randomText(rng, 24);
    case 3:
      return rng.choice(TOOL_WORDS);
    case 4:
      return rng.int(2) === 0;
    case 5:
      return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth - 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = rng.int(4); i > 0; i--) out[rng.choice(TOOL_WORDS)] = randomValue(rng, depth - 1);
      return out;
    }
  }
}

function randomText(rng: Rng, maxLength: number): string {
  const chars = [...ALPHABET];
  return Array.from({ length: rng.int(maxLength + 1) }, () => rng.choice(chars)).join('');
}

/** Mutate a valid action: edit its text, or corrupt its structure. */
function mutate(action: unknown, rng: Rng): unknown {
  const text = typeof action === 'string' ? action : JSON.stringify(action);
  switch (rng.int(7)) {
    case 0: {
      const at = rng.int(text.length + 1);
      return text.slice(0, at) + randomText(rng, 4) + text.slice(at + rng.int(4));
    }
    case 1:
      return text.slice(0, rng.int(text.length + 1));
    case 2:
      return [...text].map((c) => (rng.int(5) === 0 ? c.toUpperCase() : c)).join('');
    case 3:
      return typeof action === 'object' && action !== null ? { ...(action as object), [rng.choice(TOOL_WORDS)]: randomValue(rng, 2) } : `${text} ${text}`;
    case 4:
      return [action, randomValue(rng, 1)];
    case 5:
      return rng.int(8) === 0 ? rng.choice(PATHOLOGICAL_ACTIONS).make() : text.replace(/"/g, rng.choice(["'", '', '`']));
    default:
      return { name: rng.choice(TOOL_WORDS), arguments: randomValue(rng, 2) };
  }
}

const concert = useFixtureEnv();

describe('fuzzing SQLEnv with random and mutated actions', () => {
  it('survives 12,000 actions (tolerant and strict): no throw, valid results, database unchanged', async () => {
    const before = createHash('sha256').update(readFileSync(concert.fixture.dbPath)).digest('hex');
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, stepBudget: 50, queryLimits: { timeoutMs: 500 } });
    const rng = new Rng(2024);
    const errorTypes = new Set<unknown>([null, ...SQL_ERROR_TYPES]);
    const seenErrors = new Set<unknown>();
    let done = true;
    for (let i = 0; i < 10_000; i++) {
      if (done) {
        await env.reset({ seed: i });
        done = false;
      }
      const action = rng.int(3) === 0 ? randomValue(rng, 3) : mutate(rng.choice(VALID_ACTIONS), rng);
      const [obs, reward, terminated, truncated, info] = await env.step(action as never);
      expect(Number.isFinite(reward)).toBe(true);
      expect(errorTypes.has(info.error_type)).toBe(true);
      if (i % 500 === 0) expect(env.observationSpace.contains(obs)).toBe(true);
      seenErrors.add(info.error_type);
      done = terminated || truncated;
    }
    await env.close();
    expect(seenErrors.size).toBeGreaterThanOrEqual(5);

    // Strict mode takes other code paths (repairs become errors): 2,000 more actions.
    const strict = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, stepBudget: 50, actionMode: 'strict', queryLimits: { timeoutMs: 500 } });
    done = true;
    for (let i = 0; i < 2_000; i++) {
      if (done) {
        await strict.reset({ seed: i });
        done = false;
      }
      const action = rng.int(3) === 0 ? randomValue(rng, 3) : mutate(rng.choice(VALID_ACTIONS), rng);
      const [, reward, terminated, truncated, info] = await strict.step(action as never);
      expect(Number.isFinite(reward)).toBe(true);
      expect(errorTypes.has(info.error_type)).toBe(true);
      done = terminated || truncated;
    }
    await strict.close();
    expect(createHash('sha256').update(readFileSync(concert.fixture.dbPath)).digest('hex')).toBe(before);
  }, 120_000);
});

describe('pathological actions', () => {
  it.each(PATHOLOGICAL_ACTIONS.map((a) => [a.name, a] as const))('%s: a judged step with a typed error, counters consistent', async (_name, pathological) => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, stepBudget: 50 });
    try {
      const [obs0] = await env.reset({ seed: 3 });
      const [obs, reward, terminated, truncated, info] = await env.step(pathological.make() as never);
      expect(obs.step).toBe(obs0.step + 1);
      expect(Number.isFinite(reward)).toBe(true);
      expect([null, ...SQL_ERROR_TYPES]).toContain(info.error_type);
      expect(env.observationSpace.contains(obs)).toBe(true);
      if (terminated || truncated) return;
      // The episode goes on normally: the next step counts from the same counter.
      const [next, , , , nextInfo] = await env.step({ name: 'describe', arguments: { table_name: 'stadium' } });
      expect(next.step).toBe(obs.step + 1);
      expect(nextInfo.error_type).toBeNull();
    } finally {
      await env.close();
    }
  });

  it('refuses what cannot be read with the cause, and never reads inherited keys as arguments', async () => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, stepBudget: 50 });
    await env.reset({ seed: 3 });
    const byName = new Map(PATHOLOGICAL_ACTIONS.map((a) => [a.name, a]));
    const step = async (name: string) => (await env.step(byName.get(name)!.make() as never))[0];
    const infoOf = async (name: string) => (await env.step(byName.get(name)!.make() as never))[4];
    expect((await step('10k-deep array')).error).toMatch(/nested deeper than 64 levels/);
    expect((await infoOf('10k-deep answer value')).error_type).toBe('parse_error');
    expect((await infoOf('10k-deep JSON text in a tool_call tag')).error_type).toBe('invalid_argument');
    expect((await infoOf('300k-deep function-call text')).error_type).toBe('invalid_argument');
    expect((await step('200k-item answer')).error).toMatch(/more than 100,000 values/);
    expect((await step('cyclic action')).error).toMatch(/nested deeper than 64 levels/);
    expect((await step('throwing getter')).error).toMatch(/getter exploded/);
    for (const name of ['__proto__ arguments', '__proto__ in JSON text', '__proto__ in function text', 'constructor/prototype keys']) {
      const info = await infoOf(name);
      expect(info.error_type, name).toBe('missing_argument');
      expect(JSON.stringify(info.repairs), name).toMatch(/dropped/);
    }
    const [, , , , bigSample] = await env.step(byName.get('bigint sample size')!.make() as never);
    expect(bigSample.error_type).toBeNull();
    expect(JSON.stringify(bigSample.repairs)).toMatch(/clamped/);
    await env.close();
  });
});
