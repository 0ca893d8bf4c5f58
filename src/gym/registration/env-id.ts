/** The parts of an environment id `[namespace/]Name[-vN]`. */
import { GymError } from '../gym-error.js';
export interface EnvIdParts {
  namespace: string | undefined;
  name: string;
  version: number | undefined;
}

/** An id that does not follow `[namespace/]Name[-vN]`. */
export class InvalidEnvIdError extends GymError {
  constructor(readonly id: string) {
    super(
      `invalid environment id ${JSON.stringify(id)}: ids look like [namespace/]Name[-vN], e.g. 'GuessNumber-v0' or ` +
        "'my-org/Maze-v2' (letters, digits, '_', ':', '.', '-'; the version is a non-negative integer)",
    );
    this.name = 'InvalidEnvIdError';
  }
}

const ENV_ID = /^(?:(?<namespace>[\w:.-]+)\/)?(?<name>[\w:.-]+?)(?:-v(?<version>\d+))?$/;

/**
 * Split an id into namespace, name and version, as Gymnasium's `parse_env_id`.
 *
 * @example
 * ```ts
 * parseEnvId('my-org/Maze-v2'); // { namespace: 'my-org', name: 'Maze', version: 2 }
 * parseEnvId('Maze');           // { namespace: undefined, name: 'Maze', version: undefined }
 * ```
 */
export function parseEnvId(id: string): EnvIdParts {
  const match = ENV_ID.exec(id);
  if (!match?.groups) throw new InvalidEnvIdError(id);
  const { namespace, name, version } = match.groups;
  return { namespace: namespace || undefined, name: name!, version: version === undefined ? undefined : Number(version) };
}

/**
 * The canonical id of the given parts (inverse of {@link parseEnvId}).
 *
 * @example
 * ```ts
 * formatEnvId({ namespace: undefined, name: 'GuessNumber', version: 0 }); // 'GuessNumber-v0'
 * ```
 */
export function formatEnvId(parts: EnvIdParts): string {
  return `${parts.namespace ? `${parts.namespace}/` : ''}${parts.name}${parts.version === undefined ? '' : `-v${parts.version}`}`;
}
