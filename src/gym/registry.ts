import { Env } from './env.js';
import { closestMatches } from '../base/edit-distance.js';
import { formatEnvId, parseEnvId } from './registration/env-id.js';
import type { EnvKwargs, EnvSpec, RegisterOptions } from './registration/env-spec.js';
import { OrderEnforcing } from './wrappers/order-enforcing.js';
import { PassiveEnvChecker } from './wrappers/passive-env-checker.js';
import { TimeLimit } from './wrappers/time-limit.js';
import { GymError } from './gym-error.js';

export type { EnvKwargs, EnvSpec, EntryPoint, RegisterOptions } from './registration/env-spec.js';

/** `make()`/`spec()` of an id that is not registered; the message names the closest ids or the versions that exist. */
export class EnvNotFoundError extends GymError {
  constructor(
    readonly id: string,
    message: string,
    /** Registered ids the caller probably meant, closest first. */
    readonly suggestions: string[],
  ) {
    super(message);
    this.name = 'EnvNotFoundError';
  }
}

/**
 * The observation, action and keyword-argument types of one registered id: an entry of
 * {@link RegisteredEnvs}.
 *
 * @example
 * ```ts
 * type Guess = EnvTypes<string, number, { maxNumber?: number }>;
 * ```
 */
export interface EnvTypes<Obs, Act, Kwargs extends object = EnvKwargs> {
  observation: Obs;
  action: Act;
  kwargs: Kwargs;
}

/**
 * The types of the ids registered in the default {@link registry}, so that `make(id)` returns
 * `Env<Obs, Act>` and checks its kwargs without type arguments. The bundled environments add
 * their ids here; add yours by declaration merging next to its `register` call.
 *
 * @example
 * ```ts
 * declare module 'sqlenv' {
 *   interface RegisteredEnvs {
 *     'Coin-v0': EnvTypes<string, 0 | 1, { bias?: number }>;
 *   }
 * }
 * ```
 */
// Empty here: each environment module adds its id by declaration merging.
export interface RegisteredEnvs {}

/** An id with types in {@link RegisteredEnvs}. */
export type RegisteredEnvId = keyof RegisteredEnvs & string;

/** The observation type of a registered id. */
export type ObservationOf<Id extends RegisteredEnvId> = RegisteredEnvs[Id] extends EnvTypes<infer Obs, unknown, object> ? Obs : unknown;
/** The action type of a registered id. */
export type ActionOf<Id extends RegisteredEnvId> = RegisteredEnvs[Id] extends EnvTypes<unknown, infer Act, object> ? Act : unknown;
/** The keyword arguments of a registered id. */
export type KwargsOf<Id extends RegisteredEnvId> = RegisteredEnvs[Id] extends EnvTypes<unknown, unknown, infer Kwargs> ? Kwargs : EnvKwargs;

/** Per-call overrides of a spec's wrapper settings, as the keyword arguments of Gymnasium's `make`. */
export interface MakeOptions {
  /** Override the spec's `maxEpisodeSteps` (adds or changes the TimeLimit). */
  maxEpisodeSteps?: number;
  /** Override the spec's `disableEnvChecker`. */
  disableEnvChecker?: boolean;
  /** Override the spec's `orderEnforce`. */
  orderEnforce?: boolean;
}

/**
 * Environment ids and how to build them, as Gymnasium's registry. `make()` builds the env from its
 * entry point with the registered kwargs overridden by the caller's, sets `env.unwrapped.spec`,
 * then wraps it — innermost first — in PassiveEnvChecker (unless `disableEnvChecker`),
 * OrderEnforcing (unless `orderEnforce: false`) and TimeLimit (when `maxEpisodeSteps` is set).
 *
 * Most code uses the default instance through the module functions {@link register},
 * {@link make} and {@link spec}; build a separate `Registry` for isolation (tests, plugins).
 * Registering an id again replaces its spec, as in Gymnasium (so modules can be re-imported).
 *
 * @example
 * ```ts
 * const local = new Registry();
 * local.register('Coin-v0', { entryPoint: () => new CoinFlip(), maxEpisodeSteps: 1 });
 * const env = local.make('Coin-v0');
 * ```
 */
export class Registry implements Iterable<EnvSpec> {
  private readonly specs = new Map<string, EnvSpec>();

  /** Register `id` (`[namespace/]Name[-vN]`); returns the stored spec. */
  register<Kwargs extends object = EnvKwargs>(id: string, options: RegisterOptions<Kwargs>): EnvSpec {
    const parts = parseEnvId(id);
    if (typeof options.entryPoint !== 'function') {
      throw new TypeError(`register('${id}') needs an entryPoint function (kwargs) => Env`);
    }
    if (options.maxEpisodeSteps !== undefined && (!Number.isSafeInteger(options.maxEpisodeSteps) || options.maxEpisodeSteps <= 0)) {
      throw new RangeError(`register('${id}'): maxEpisodeSteps must be a positive integer, got ${options.maxEpisodeSteps}`);
    }
    const canonical = formatEnvId(parts);
    const spec: EnvSpec = {
      id: canonical,
      ...parts,
      entryPoint: options.entryPoint as unknown as EnvSpec['entryPoint'],
      maxEpisodeSteps: options.maxEpisodeSteps,
      rewardThreshold: options.rewardThreshold,
      nondeterministic: options.nondeterministic ?? false,
      orderEnforce: options.orderEnforce ?? true,
      disableEnvChecker: options.disableEnvChecker ?? false,
      kwargs: { ...(options.kwargs ?? {}) },
      description: options.description,
    };
    this.specs.set(canonical, spec);
    return spec;
  }

  /** Remove `id`; returns whether it was registered. */
  unregister(id: string): boolean {
    return this.specs.delete(formatEnvId(parseEnvId(id)));
  }

  /** Whether `id` is registered. */
  has(id: string): boolean {
    return this.specs.has(formatEnvId(parseEnvId(id)));
  }

  /** The spec of `id`; throws {@link EnvNotFoundError} naming the closest ids or the available versions. */
  spec(id: string): EnvSpec {
    const parts = parseEnvId(id);
    const found = this.specs.get(formatEnvId(parts));
    if (found) return found;
    const siblings = [...this.specs.values()].filter((s) => s.namespace === parts.namespace && s.name === parts.name);
    if (siblings.length > 0) {
      const versions = siblings.map((s) => (s.version === undefined ? '(unversioned)' : `v${s.version}`));
      const ids = siblings.map((s) => s.id);
      const what = parts.version === undefined ? `'${id}' needs a version` : `version v${parts.version} of '${formatEnvId({ ...parts, version: undefined })}' is not registered`;
      throw new EnvNotFoundError(id, `${what}; available versions: ${versions.join(', ')} (e.g. make('${ids[ids.length - 1]}'))`, ids);
    }
    const suggestions = closestMatches(id, this.ids());
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(', ')}?` : ' No environments are registered.';
    const importHint = ' Environments register when their module is imported (e.g. `import \'sqlenv\'`).';
    throw new EnvNotFoundError(id, `no environment '${id}' is registered.${hint}${importHint}`, suggestions);
  }

  /**
   * Build the environment `id` with `kwargs` merged over the registered ones, wrapped as described
   * on the class. The type parameters are the caller's promise about the env's types.
   */
  make<Obs = unknown, Act = unknown>(id: string, kwargs: EnvKwargs = {}, options: MakeOptions = {}): Env<Obs, Act> {
    const base = this.spec(id);
    const spec: EnvSpec = {
      ...base,
      kwargs: { ...base.kwargs, ...kwargs },
      maxEpisodeSteps: options.maxEpisodeSteps ?? base.maxEpisodeSteps,
      disableEnvChecker: options.disableEnvChecker ?? base.disableEnvChecker,
      orderEnforce: options.orderEnforce ?? base.orderEnforce,
    };
    const created = spec.entryPoint(spec.kwargs);
    if (!(created instanceof Env)) {
      throw new TypeError(`the entry point of '${spec.id}' returned ${String(created)}, not an Env`);
    }
    created.unwrapped.spec = spec;
    let env: Env<unknown, unknown> = created;
    if (!spec.disableEnvChecker) env = new PassiveEnvChecker(env);
    if (spec.orderEnforce) env = new OrderEnforcing(env);
    if (spec.maxEpisodeSteps !== undefined) env = new TimeLimit(env, spec.maxEpisodeSteps);
    return env as Env<Obs, Act>;
  }

  /** Registered ids, in registration order. */
  ids(): string[] {
    return [...this.specs.keys()];
  }

  /** Number of registered ids. */
  get size(): number {
    return this.specs.size;
  }

  [Symbol.iterator](): Iterator<EnvSpec> {
    return this.specs.values();
  }
}

/**
 * The default registry. It is the one deliberate piece of module-level state in the library, as
 * in Gymnasium: environments register themselves when their module is imported, and `make(id)`
 * anywhere in the process — including worker threads of AsyncVectorEnv, which import the same
 * modules — must find them by id alone. Code that needs isolation creates its own {@link Registry}.
 *
 * @example
 * ```ts
 * registry.ids(); // ['SQLEnv-v0', 'GuessNumber-v0', …]
 * ```
 */
export const registry = new Registry();

/**
 * Register an environment in the default {@link registry}.
 *
 * @example
 * ```ts
 * register('GuessNumber-v0', { entryPoint: (kw) => new GuessNumber(kw), maxEpisodeSteps: 10 });
 * ```
 */
export function register<Kwargs extends object = EnvKwargs>(id: string, options: RegisterOptions<Kwargs>): EnvSpec {
  return registry.register(id, options);
}

/**
 * Build a registered environment from the default {@link registry}, wrapped in
 * PassiveEnvChecker → OrderEnforcing → TimeLimit. For an id in {@link RegisteredEnvs} the
 * observation, action and kwargs types come from the id; for any other id, pass them as type
 * arguments (they are the caller's promise).
 *
 * @example
 * ```ts
 * const env = make('GuessNumber-v0', { maxNumber: 50 }); // Env<string, number>
 * const [obs] = await env.reset({ seed: 0 });
 * ```
 */
export function make<Id extends RegisteredEnvId>(id: Id, kwargs?: Partial<KwargsOf<Id>>, options?: MakeOptions): Env<ObservationOf<Id>, ActionOf<Id>>;
// A registered id is held to its own kwargs: a misspelt one is a compile error, not a fall back to Env<unknown, unknown>.
export function make<Obs = unknown, Act = unknown, Id extends string = string>(id: Id extends RegisteredEnvId ? never : Id, kwargs?: EnvKwargs, options?: MakeOptions): Env<Obs, Act>;
export function make(id: string, kwargs: object = {}, options: MakeOptions = {}): Env<unknown, unknown> {
  // An options interface (SqlEnvOptions) has no index signature, so it is not an EnvKwargs to the compiler; it is one at run time.
  return registry.make(id, kwargs as EnvKwargs, options);
}

/**
 * The spec of a registered environment in the default {@link registry}.
 *
 * @example
 * ```ts
 * spec('GuessNumber-v0').maxEpisodeSteps; // 10
 * ```
 */
export function spec(id: string): EnvSpec {
  return registry.spec(id);
}
