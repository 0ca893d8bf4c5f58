import { describe, expect, it } from 'vitest';
import {
  EnvNotFoundError,
  InvalidEnvIdError,
  OrderEnforcing,
  PassiveEnvChecker,
  Registry,
  TimeLimit,
  Wrapper,
  formatEnvId,
  make,
  parseEnvId,
  registry,
  spec,
  type Env,
} from '../../src/gym/index.js';
import { closestMatches, editDistance } from '../../src/base/edit-distance.js';
import '../../envs/guess/index.js';
import { CountingEnv } from './helpers/envs.js';

function wrapperChain(env: Env<unknown, unknown>): string[] {
  const names: string[] = [];
  let current: Env<unknown, unknown> = env;
  while (current instanceof Wrapper) {
    names.push(current.constructor.name);
    current = current.env;
  }
  names.push(current.constructor.name);
  return names;
}

describe('env ids', () => {
  it('parse and format [namespace/]Name[-vN]', () => {
    expect(parseEnvId('my-org/Maze-v12')).toEqual({ namespace: 'my-org', name: 'Maze', version: 12 });
    expect(parseEnvId('Maze')).toEqual({ namespace: undefined, name: 'Maze', version: undefined });
    expect(parseEnvId('Maze-vX')).toEqual({ namespace: undefined, name: 'Maze-vX', version: undefined });
    expect(formatEnvId(parseEnvId('a/B-v3'))).toBe('a/B-v3');
    expect(() => parseEnvId('bad id!')).toThrow(InvalidEnvIdError);
    expect(() => parseEnvId('')).toThrow(/\[namespace\/\]Name\[-vN\]/);
  });

  it('edit distance and closest matches', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
    expect(closestMatches('guesnumber-v0', ['SQLEnv-v0', 'GuessNumber-v0', 'Other-v1'], 2)).toEqual(['GuessNumber-v0', 'SQLEnv-v0']);
  });
});

describe('Registry', () => {
  it('make wraps PassiveEnvChecker → OrderEnforcing → TimeLimit around the env', () => {
    const env = make('GuessNumber-v0');
    expect(wrapperChain(env)).toEqual(['TimeLimit', 'OrderEnforcing', 'PassiveEnvChecker', 'GuessNumber']);
    expect((env as TimeLimit).maxEpisodeSteps).toBe(10);
  });

  it('honours orderEnforce, disableEnvChecker and maxEpisodeSteps, from the spec or make options', () => {
    const local = new Registry();
    local.register('Plain-v0', { entryPoint: () => new CountingEnv(), orderEnforce: false, disableEnvChecker: true });
    expect(wrapperChain(local.make('Plain-v0'))).toEqual(['CountingEnv']);
    expect(wrapperChain(local.make('Plain-v0', {}, { maxEpisodeSteps: 4, orderEnforce: true }))).toEqual(['TimeLimit', 'OrderEnforcing', 'CountingEnv']);
    local.register('Checked-v0', { entryPoint: () => new CountingEnv() });
    const checked = local.make('Checked-v0');
    expect(wrapperChain(checked)).toEqual(['OrderEnforcing', 'PassiveEnvChecker', 'CountingEnv']);
    expect((checked as OrderEnforcing).env).toBeInstanceOf(PassiveEnvChecker);
  });

  it('merges kwargs over the registered ones and records them in env.spec', () => {
    const local = new Registry();
    const seen: unknown[] = [];
    local.register<{ length: number; label: string }>('ns/Count-v2', {
      entryPoint: (kw) => {
        seen.push(kw);
        return new CountingEnv(kw.length);
      },
      kwargs: { length: 3, label: 'default' },
      maxEpisodeSteps: 100,
      rewardThreshold: 9,
      nondeterministic: true,
      description: 'counts',
    });
    const env = local.make('ns/Count-v2', { length: 7 });
    expect(seen).toEqual([{ length: 7, label: 'default' }]);
    expect((env.unwrapped as CountingEnv).length).toBe(7);
    expect(env.spec?.kwargs).toEqual({ length: 7, label: 'default' });
    expect(env.spec).toBe(env.unwrapped.spec);
    expect(local.spec('ns/Count-v2')).toMatchObject({ namespace: 'ns', name: 'Count', version: 2, maxEpisodeSteps: 100, rewardThreshold: 9, nondeterministic: true });
    expect(local.spec('ns/Count-v2').kwargs).toEqual({ length: 3, label: 'default' });
    expect(local.ids()).toEqual(['ns/Count-v2']);
    expect([...local].map((s) => s.id)).toEqual(['ns/Count-v2']);
    expect(local.has('ns/Count-v2')).toBe(true);
    expect(local.unregister('ns/Count-v2')).toBe(true);
    expect(local.size).toBe(0);
  });

  it('an unknown id names the closest registered ids', () => {
    const local = new Registry();
    for (const id of ['SQLEnv-v0', 'GuessNumber-v0', 'Maze-v1', 'Maze-v3']) local.register(id, { entryPoint: () => new CountingEnv() });
    const error = (() => {
      try {
        local.make('GuesNumber-v0');
      } catch (e) {
        return e as EnvNotFoundError;
      }
      throw new Error('make did not throw');
    })();
    expect(error).toBeInstanceOf(EnvNotFoundError);
    expect(error.suggestions[0]).toBe('GuessNumber-v0');
    expect(error.message).toMatch(/no environment 'GuesNumber-v0'.*Did you mean 'GuessNumber-v0'/);
  });

  it('an unknown version lists the versions available', () => {
    const local = new Registry();
    local.register('Maze-v1', { entryPoint: () => new CountingEnv() });
    local.register('Maze-v3', { entryPoint: () => new CountingEnv() });
    expect(() => local.make('Maze-v2')).toThrow(/version v2 of 'Maze' is not registered; available versions: v1, v3/);
    expect(() => local.spec('Maze')).toThrow(/'Maze' needs a version; available versions: v1, v3/);
  });

  it('rejects bad registrations and entry points that return no Env', () => {
    const local = new Registry();
    expect(() => local.register('X-v0', { entryPoint: undefined as never })).toThrow(/entryPoint/);
    expect(() => local.register('X-v0', { entryPoint: () => new CountingEnv(), maxEpisodeSteps: 0 })).toThrow(/maxEpisodeSteps/);
    local.register('Y-v0', { entryPoint: () => ({}) as never });
    expect(() => local.make('Y-v0')).toThrow(/not an Env/);
  });

  it('the default registry is shared by register/make/spec', () => {
    expect(registry.has('GuessNumber-v0')).toBe(true);
    expect(spec('GuessNumber-v0').maxEpisodeSteps).toBe(10);
  });
});
