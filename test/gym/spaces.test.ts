import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import {
  Box,
  Dict,
  Discrete,
  OneOf,
  Sequence,
  Text,
  ToolCallSpace,
  Tuple,
  UnsupportedSchemaError,
  sampleJsonSchema,
  spaceFromJSONSchema,
  spaces,
  type AnySpace,
  type JSONSchema,
  type ToolDefinition,
} from '../../src/gym/index.js';

const TOOLS: ToolDefinition[] = [
  {
    name: 'describe',
    description: 'Describe a table',
    parameters: { type: 'object', properties: { table_name: { type: 'string', minLength: 1, maxLength: 30 } }, required: ['table_name'], additionalProperties: false },
  },
  {
    name: 'sample',
    description: 'Sample rows',
    parameters: {
      type: 'object',
      properties: {
        table_name: { type: 'string', minLength: 1 },
        n: { type: 'integer', minimum: 1, maximum: 20 },
        order: { enum: ['asc', 'desc'] },
        ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        columns: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        flags: { type: 'object', properties: { distinct: { type: 'boolean' } }, required: ['distinct'] },
        note: { type: ['string', 'null'] },
      },
      required: ['table_name'],
    },
  },
];

/** One instance of every space, each built by a function so tests can make fresh copies. */
const FACTORIES: Record<string, () => AnySpace> = {
  Discrete: () => new Discrete(5, -2),
  Box: () => new Box([-1, 0, -Infinity, 0], [1, 10, Infinity, Infinity], [2, 2]),
  BoxInt: () => new Box(-3, 3, [3], { dtype: 'int' }),
  Text: () => new Text({ maxLength: 8, minLength: 2, charset: 'abc-]' }),
  TextAny: () => new Text({ maxLength: 20, minLength: 0, charset: 'any' }),
  Dict: () => new Dict({ step: new Discrete(10), name: new Text({ maxLength: 4 }) }) as unknown as AnySpace,
  Tuple: () => new Tuple([new Discrete(2), new Box(0, 1, [2])]) as unknown as AnySpace,
  Sequence: () => new Sequence(new Discrete(3)) as unknown as AnySpace,
  OneOf: () => new OneOf([new Discrete(2), new Text({ maxLength: 3 })]) as unknown as AnySpace,
  ToolCallSpace: () => new ToolCallSpace(TOOLS) as unknown as AnySpace,
  Nested: () =>
    new Dict({
      history: new Sequence(new OneOf([new Discrete(4), new ToolCallSpace(TOOLS)])),
      pair: new Tuple([new Text({ maxLength: 2, charset: 'xy' }), new Box(0, 1, [1])]),
    }) as unknown as AnySpace,
};

describe.each(Object.entries(FACTORIES))('%s', (_name, factory) => {
  it('contains its own samples', () => {
    const space = factory();
    space.seed(0);
    for (let i = 0; i < 50; i++) expect(space.contains(space.sample())).toBe(true);
  });

  it('samples the same values after the same seed, and different ones after another seed', () => {
    const a = factory();
    const b = factory();
    const seedsA = a.seed(42);
    const seedsB = b.seed(42);
    expect(seedsA).toEqual(seedsB);
    expect(seedsA[0]).toBe(42);
    const drawsA = Array.from({ length: 10 }, () => a.sample());
    expect(Array.from({ length: 10 }, () => b.sample())).toEqual(drawsA);
    b.seed(43);
    expect(Array.from({ length: 10 }, () => b.sample())).not.toEqual(drawsA);
  });

  it('round-trips through its tagged JSON Schema', () => {
    const space = factory();
    const schema = space.toJSONSchema();
    expect(typeof schema['x-space']).toBe('string');
    const rebuilt = spaceFromJSONSchema(JSON.parse(JSON.stringify(schema)) as JSONSchema);
    expect(rebuilt.equals(space)).toBe(true);
    expect(space.equals(rebuilt)).toBe(true);
    expect(rebuilt.constructor).toBe(space.constructor);
  });

  it('rejects values of the wrong kind', () => {
    const space = factory();
    for (const bad of [undefined, null, Symbol('x'), () => 1, { totally: 'wrong' }]) expect(space.contains(bad)).toBe(false);
  });
});

describe('Discrete', () => {
  it('holds start … start + n − 1 and honours masks', () => {
    const d = new Discrete(3, 5, 0);
    expect([4, 5, 6, 7, 7.5, '5'].map((x) => d.contains(x))).toEqual([false, true, true, true, false, false]);
    for (let i = 0; i < 20; i++) expect(d.sample([0, 1, 0])).toBe(6);
    expect(d.sample([0, 0, 0])).toBe(5);
    expect(() => d.sample([1])).toThrow(/length 3/);
    expect(new Discrete(3).equals(new Discrete(3, 1))).toBe(false);
    expect(() => new Discrete(0)).toThrow(RangeError);
  });

  it('samples every value about equally often', () => {
    const d = new Discrete(4, 0, 9);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[d.sample()]!++;
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(120);
  });
});

describe('Box', () => {
  it('checks shape, bounds and dtype', () => {
    const box = new Box(0, 1, [2, 2]);
    expect(box.size).toBe(4);
    expect(box.contains([0, 0.5, 1, 0])).toBe(true);
    expect(box.contains(new Float64Array([0, 0.5, 1, 0]))).toBe(true);
    expect(box.contains([0, 0.5, 1.5, 0])).toBe(false);
    expect(box.contains([0, 0.5, 1])).toBe(false);
    expect(box.contains([0, NaN, 1, 0])).toBe(false);
    const ints = new Box(-3, 3, [3], { dtype: 'int' });
    expect(ints.contains([1, 2, 3])).toBe(true);
    expect(ints.contains([1, 2.5, 3])).toBe(false);
    expect(() => new Box(1, 0, [1])).toThrow(/low <= high/);
    expect(() => new Box([0, 0], 1, [3])).toThrow(/2 elements/);
  });

  it('samples unbounded sides from the right distributions', () => {
    const box = new Box([-Infinity, 5, -Infinity], [Infinity, Infinity, -5], [3], { seed: 1 });
    for (let i = 0; i < 200; i++) {
      const [free, low, high] = box.sample() as [number, number, number];
      expect(Number.isFinite(free)).toBe(true);
      expect(low).toBeGreaterThanOrEqual(5);
      expect(high).toBeLessThanOrEqual(-5);
    }
    expect(box.isBounded()).toBe(false);
    expect(box.toJSONSchema()['x-low']).toEqual([null, 5, null]);
  });
});

describe('Text', () => {
  it('measures lengths in code points and checks the charset', () => {
    const text = new Text({ maxLength: 3, charset: 'ab😀' });
    expect(text.contains('a😀b')).toBe(true);
    expect(text.contains('')).toBe(false);
    expect(text.contains('abc')).toBe(false);
    expect(text.contains('abab')).toBe(false);
    expect(new Text({ maxLength: 3, minLength: 0, charset: 'any' }).contains('')).toBe(true);
  });

  it('honours length and charset masks', () => {
    const text = new Text({ maxLength: 10, charset: 'abc', seed: 3 });
    expect(text.sample({ length: 7 })).toHaveLength(7);
    expect(text.sample({ length: 5, charsetMask: [0, 1, 0] })).toBe('bbbbb');
    expect(() => text.sample({ length: 11 })).toThrow(RangeError);
  });

  it('exports a pattern that matches exactly its charset', () => {
    const schema = new Text({ maxLength: 5, charset: 'a-]^' }).toJSONSchema();
    const pattern = new RegExp(schema.pattern as string);
    expect(pattern.test('a-]^')).toBe(true);
    expect(pattern.test('ab')).toBe(false);
  });
});

describe('Dict, Tuple, Sequence, OneOf', () => {
  it('Dict needs exactly its keys', () => {
    const dict = new Dict({ a: new Discrete(2), b: new Discrete(2) });
    expect(dict.contains({ a: 0, b: 1 })).toBe(true);
    expect(dict.contains({ a: 0 })).toBe(false);
    expect(dict.contains({ a: 0, b: 1, c: 1 })).toBe(false);
    expect(dict.contains({ a: 0, b: 2 })).toBe(false);
    expect(dict.sample({ a: [0, 1] }).a).toBe(1);
  });

  it('seeds children deterministically from one seed and reports every seed used', () => {
    const make = () => new Dict({ a: new Discrete(100), b: new Tuple([new Discrete(100), new Discrete(100)]) });
    const seeds = make().seed(7);
    expect(seeds).toHaveLength(5);
    expect(make().seed(7)).toEqual(seeds);
    const seededAtConstruction = new Dict({ a: new Discrete(100) }, 11);
    const seededLater = new Dict({ a: new Discrete(100) });
    seededLater.seed(11);
    expect(seededAtConstruction.sample()).toEqual(seededLater.sample());
  });

  it('Tuple, Sequence and OneOf check element spaces and lengths', () => {
    const tuple = new Tuple([new Discrete(2), new Text({ maxLength: 2 })]);
    expect(tuple.contains([1, 'ab'])).toBe(true);
    expect(tuple.contains([1, 'ab', 1])).toBe(false);
    const seq = new Sequence(new Discrete(2), 0);
    expect(seq.contains([])).toBe(true);
    expect(seq.contains([0, 1, 2])).toBe(false);
    expect(seq.sample({ length: 4 })).toHaveLength(4);
    const lengths = Array.from({ length: 2000 }, () => seq.sample().length);
    const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    expect(mean).toBeGreaterThan(2.5); // geometric(0.25) on {0, 1, …} has mean 3
    expect(mean).toBeLessThan(3.5);
    const oneOf = new OneOf([new Discrete(2), new Text({ maxLength: 2 })]);
    expect(oneOf.contains([0, 1])).toBe(true);
    expect(oneOf.contains([1, 1])).toBe(false);
    expect(oneOf.contains([2, 1])).toBe(false);
  });

  it('is reachable through the spaces namespace', () => {
    expect(new spaces.Discrete(2)).toBeInstanceOf(Discrete);
  });
});

describe('ToolCallSpace', () => {
  const space = new ToolCallSpace(TOOLS, 5);

  it('generates random schema-valid calls covering every tool and optional property', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const call = space.sample();
      expect(space.validate(call)).toEqual({ ok: true, errors: [] });
      seen.add(call.name);
      for (const key of Object.keys(call.arguments)) seen.add(`${call.name}.${key}`);
    }
    expect(seen).toEqual(new Set(['describe', 'describe.table_name', 'sample', ...Object.keys(TOOLS[1]!.parameters.properties as object).map((k) => `sample.${k}`)]));
  });

  it('explains what is wrong with invalid calls', () => {
    expect(space.validate({ name: 'query', arguments: {} }).errors[0]).toMatch(/unknown tool 'query'; available tools: describe, sample/);
    expect(space.validate({ name: 'describe', arguments: {} }).errors).toEqual(["describe: arguments must have required property 'table_name'"]);
    expect(space.validate({ name: 'describe', arguments: { table_name: 'x', extra: null } }).errors).toEqual(["describe: arguments has unexpected property 'extra'"]);
    expect(space.validate({ name: 'sample', arguments: { table_name: 'x', n: 99, order: 'up' } }).errors).toEqual([
      'sample: arguments.n must be <= 20',
      'sample: arguments.order must be one of ["asc","desc"]',
    ]);
    expect(space.validate({ name: 'describe', arguments: '{"table_name":"x"}' }).ok).toBe(false);
    expect(space.validate('describe singer').ok).toBe(false);
    expect(space.contains({ name: 'describe', arguments: { table_name: 'singer' } })).toBe(true);
  });

  it('restricts sampled tools with a mask and refuses bad definitions', () => {
    for (let i = 0; i < 20; i++) expect(space.sample([0, 1]).name).toBe('sample');
    expect(() => new ToolCallSpace([TOOLS[0]!, TOOLS[0]!])).toThrow(/defined twice/);
    expect(() => new ToolCallSpace([{ name: 'x', description: '', parameters: { type: 'nonsense' } }])).toThrow(/invalid/);
  });
});

describe('sampleJsonSchema', () => {
  it('respects bounds, exclusivity and enums', () => {
    const rng = new Rng(0);
    for (let i = 0; i < 200; i++) {
      const x = sampleJsonSchema({ type: 'integer', exclusiveMinimum: 2, exclusiveMaximum: 5 }, rng) as number;
      expect([3, 4]).toContain(x);
      expect(sampleJsonSchema({ type: 'string', minLength: 3, maxLength: 3 }, rng)).toHaveLength(3);
      expect(['a', 'b']).toContain(sampleJsonSchema({ anyOf: [{ const: 'a' }, { enum: ['b'] }] }, rng));
    }
  });

  it('keeps generated strings and arrays short even when the schema allows huge ones', () => {
    const rng = new Rng(2);
    for (let i = 0; i < 100; i++) {
      expect((sampleJsonSchema({ type: 'string', minLength: 2, maxLength: 20_000 }, rng) as string).length).toBeLessThanOrEqual(14);
      expect((sampleJsonSchema({ type: 'array', items: { type: 'integer' }, maxItems: 1000 }, rng) as unknown[]).length).toBeLessThanOrEqual(3);
    }
  });

  it('names unsupported keywords instead of generating invalid values', () => {
    expect(() => sampleJsonSchema({ type: 'string', pattern: '^a+$' }, new Rng(0))).toThrow(UnsupportedSchemaError);
    expect(() => sampleJsonSchema({ $ref: '#/defs/x' }, new Rng(0))).toThrow(/'\$ref' is not supported/);
  });
});

describe('spaceFromJSONSchema', () => {
  it('refuses untagged schemas with an explanation', () => {
    expect(() => spaceFromJSONSchema({ type: 'integer' })).toThrow(/x-space/);
  });
});
