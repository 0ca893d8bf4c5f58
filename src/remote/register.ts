import { register } from '../gym/registry.js';
import type { WireSchema } from './protocol/messages.js';
import { RemoteEnv, type RemoteEnvOptions } from './remote-env.js';

/** The registered id of {@link RemoteEnv}, for `make()` and `AsyncVectorEnv` workers. */
export const REMOTE_ENV_ID = 'RemoteEnv-v0';

/** The kwargs of `make('RemoteEnv-v0', kwargs)`: the server (or servers) and the schema fetched from it. */
export interface RemoteEnvKwargs extends RemoteEnvOptions {
  url: string | string[];
  schema: WireSchema;
}

/**
 * Register `RemoteEnv-v0`, so code that builds envs from an id (worker threads of
 * `AsyncVectorEnv`, config files) can use a remote env. `make()` inspects spaces at once, so the
 * kwargs carry the schema (`await RemoteEnv.fetchSchema(url)`). Importing the remote module
 * registers it.
 *
 * @example
 * ```ts
 * const schema = await RemoteEnv.fetchSchema(url);
 * const vec = new AsyncVectorEnv({ envId: 'RemoteEnv-v0', kwargs: { url, schema, encoding: 'msgpack' }, numEnvs: 8 });
 * ```
 */
export function registerRemoteEnv(): void {
  register<Partial<RemoteEnvKwargs>>(REMOTE_ENV_ID, {
    entryPoint: ({ url, schema, ...options }) => {
      const valid = typeof url === 'string' || (Array.isArray(url) && url.length > 0 && url.every((u) => typeof u === 'string'));
      if (!valid || !schema) {
        throw new TypeError(`make('${REMOTE_ENV_ID}') needs kwargs { url, schema } with schema = await RemoteEnv.fetchSchema(url)`);
      }
      return new RemoteEnv(url as string | string[], { ...options, schema });
    },
    description: 'An environment served by an OpenEnv-compatible server (sqlenv serve), reached over WebSocket or HTTP.',
  });
}

registerRemoteEnv();
