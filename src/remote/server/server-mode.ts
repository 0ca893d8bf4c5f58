/**
 * OpenEnv's two server modes. `simulation` (the default) serves the episode-control routes
 * `/reset`, `/step` and `/state` beside everything else; `production` serves none of the three,
 * so agents reach the env only through `POST /mcp` sessions (`openenv/session/create`,
 * `tools/call`, `openenv/session/close`) or the WebSocket `/ws`. `openenv validate` accepts
 * either, as long as the three routes are all present or all absent.
 */
export type ServerMode = 'simulation' | 'production';

/** The HTTP routes only a `simulation` server serves. */
export const SIMULATION_ROUTES: readonly string[] = ['/reset', '/step', '/state'];

/**
 * Whether a server in `mode` serves `path`.
 *
 * @example
 * servesRoute('production', '/step'); // false
 */
export function servesRoute(mode: ServerMode, path: string): boolean {
  return mode === 'simulation' || !SIMULATION_ROUTES.includes(path);
}
