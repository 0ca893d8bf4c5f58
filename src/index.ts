/**
 * sqlenv — Gymnasium/OpenEnv-style environments for language-model agents.
 *
 * The package root is the environment API: the Gymnasium layer (environments, spaces, the
 * registry, wrappers, vector environments, the checker), SQLEnv and GuessNumber, and remote
 * environments (the OpenEnv server and the `RemoteEnv` client). docs/api.md lists every name; a
 * test holds the two equal. The training stack has its own subpaths (`sqlenv/onnx`, `sqlenv/lm`,
 * `sqlenv/train`, `sqlenv/recipes`), whose names (Tensor, StepResult…) would collide with these.
 * Internals — sandbox machinery, renderers, judge and reward helpers, transports — are imported
 * by path inside the project and are not promised.
 *
 * Importing the package registers the bundled environments (`SQLEnv-v0`, `GuessNumber-v0`,
 * `RemoteEnv-v0`).
 *
 * @example
 * ```ts
 * import { make } from 'sqlenv';
 * const env = make('SQLEnv-v0', { dataset: 'bundled', split: 'train' });
 * ```
 */

// Environments and their results.
export { Env, type EnvMetadata, type Info, type ResetOptions, type ResetResult, type StepResult } from './gym/env.js';
export { Rng } from './base/rng.js';
export { GymError } from './gym/gym-error.js';
export { InvalidResetOptionsError, type ResetOptionProblem } from './gym/invalid-reset-options-error.js';

// Spaces, flat and as the `spaces` namespace.
export * from './gym/spaces/index.js';
export * as spaces from './gym/spaces/index.js';

// The registry: ids, specs, make/register/spec, and the types make() infers from an id.
export {
  Registry,
  registry,
  make,
  register,
  spec,
  EnvNotFoundError,
  type MakeOptions,
  type EnvTypes,
  type RegisteredEnvs,
  type RegisteredEnvId,
  type ObservationOf,
  type ActionOf,
  type KwargsOf,
  type EnvKwargs,
  type EnvSpec,
  type EntryPoint,
  type RegisterOptions,
} from './gym/registry.js';
export { InvalidEnvIdError } from './gym/registration/env-id.js';

// Wrappers.
export { Wrapper, ActionWrapper, ObservationWrapper, RewardWrapper } from './gym/wrapper.js';
export * from './gym/wrappers/index.js';

// Vector environments.
export { SyncVectorEnv, type SyncVectorEnvOptions } from './gym/vector/sync-vector-env.js';
export { AsyncVectorEnv, type AsyncVectorEnvOptions } from './gym/vector/async-vector-env.js';
export { makeVec, type MakeVecOptions } from './gym/vector/make-vec.js';
export { VectorEnv, DEFAULT_AUTORESET_MODE, type VectorResetOptions, type VectorResetResult, type VectorStepResult } from './gym/vector/vector-env.js';
export { AutoresetMode } from './gym/vector/autoreset-mode.js';
export { VectorEnvWorkerError } from './gym/vector/worker-handle.js';

// The environment checker.
export { checkEnv, type CheckEnvOptions, type CheckEnvReport } from './gym/check/check-env.js';
export type { CheckWarning } from './gym/check/result-checks.js';
export { EnvCheckError } from './gym/check/env-check-error.js';

// SQLEnv: the environment, its options, observation, actions and tools (registers SQLEnv-v0).
export { SQLEnv, type SqlEnvOptions, type SqlAction } from '../envs/sql/sql-env.js';
export type { SqlResetOptions } from '../envs/sql/sql-reset-options.js';
export { SQL_ENV_ID } from '../envs/sql/register.js';
export { SqlEnvError } from '../envs/sql/sql-env-error.js';
export type { SqlStepResult } from '../envs/sql/sql-env.js';
export type { SqlStepInfo } from '../envs/sql/sql-step-info.js';
export type { SqlResultData } from '../envs/sql/episode/result-data.js';
export {
  renderFeedback,
  type SqlFeedback,
  type UnknownTableFeedback,
  type UnknownColumnFeedback,
  type ValueNotFoundFeedback,
  type TableColumns,
  type ValueHolder,
} from '../envs/sql/feedback/index.js';
export { sqlObservationSpace, renderObservation, type SqlObservation } from '../envs/sql/observation/index.js';
export {
  SqlActionParser,
  SQL_ERROR_TYPES,
  type SqlErrorType,
  type SqlToolCall,
  type ParsedSqlAction,
  type ActionRepair,
  type RepairKind,
  type ActionForm,
  type ActionMode,
} from '../envs/sql/actions/index.js';
export { SQL_TOOLS, SQL_TOOL_NAMES, sqlToolSpec, toOpenAITools, type OpenAITool, type SqlToolName, type SqlToolSpec, type SqlToolDefinition } from '../envs/sql/tools/index.js';
export { DEFAULT_REWARD_CONFIG, type RewardConfig, type PotentialWeights, type RewardComponents } from '../envs/sql/reward/index.js';
export { DEFAULT_JUDGE_CONFIG, type JudgeConfig, type AnswerMode, type NumberMatch } from '../envs/sql/judge/index.js';
export { QueryPool, DEFAULT_QUERY_LIMITS, type QueryPoolOptions, type QueryLimits } from '../envs/sql/sandbox/index.js';

// SQL datasets (bundled, Spider, BIRD), baseline agents and the environment's self-validation.
export { loadDataset, SqlDataset, DatasetError, bundledDataDir, type LoadDatasetOptions, type DatasetSource, type SqlQuestion, type GoldResult } from '../envs/sql/datasets/index.js';
export { RandomAgent, OracleAgent, NoisyAgent, runEpisodes, type SqlAgent, type RunEpisodesOptions, type EpisodeRecord, type EvaluationReport } from '../envs/sql/agents/index.js';
export { validateDataset, validateSplit, type ValidateDatasetOptions, type ValidateOptions, type ValidationReport } from '../envs/sql/validate/index.js';

// GuessNumber, the one-screen example environment (registers GuessNumber-v0).
export { GuessNumber, type GuessNumberOptions } from '../envs/guess/index.js';

// Remote environments: the OpenEnv server, the RemoteEnv client and the wire protocol (registers RemoteEnv-v0).
export { createServer, SERVER_VERSION, type EnvServer, type ServerOptions } from './remote/server/create-server.js';
export type { ServerMode } from './remote/server/server-mode.js';
export { jsonLineLogger, silentLogger, type ServerLogger } from './remote/server/logger.js';
export { DEFAULT_FLOW_LIMITS, type FlowLimits } from './remote/server/flow-control.js';
export { OPENENV_HTTP_API_VERSION } from './remote/server/openapi.js';
export { RemoteEnv, type RemoteEnvOptions } from './remote/remote-env.js';
export { RemoteEnvError, SessionLostError } from './remote/client/remote-env-error.js';
export type { ReconnectOptions } from './remote/client/failover-transport.js';
export type { WireEncoding } from './remote/protocol/codec.js';
export { REMOTE_ENV_ID, type RemoteEnvKwargs } from './remote/register.js';
export { ERROR_CODES, ProtocolError, type ErrorCode, type ValidationDetail } from './remote/protocol/error-codes.js';
export type { WireSchema, WireTool, WireState, WireStepResult, WireResetRequest, ClientMessage, ServerMessage } from './remote/protocol/messages.js';
