// PLACEHOLDER owned by the gym helper: replaced by the real registry.
/** The recipe `make()` uses to build an environment. */
export interface EnvSpec {
  id: string;
  [key: string]: unknown;
}
