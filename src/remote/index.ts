/**
 * Remote environments: an OpenEnv-compatible server for any registered env (`createServer`,
 * `sqlenv serve`) and the `RemoteEnv` client, over HTTP or WebSocket, in JSON or MessagePack.
 * Importing this module registers `RemoteEnv-v0`.
 */
export { ERROR_CODES, HTTP_STATUS_OF, ProtocolError, isErrorCode, type ErrorCode, type ValidationDetail } from './protocol/error-codes.js';
export * from './protocol/messages.js';
export { WireCodec, type WireEncoding } from './protocol/codec.js';
export { createServer, SERVER_VERSION, type EnvServer, type ServerOptions } from './server/create-server.js';
export { buildOpenApiDocument, OPENENV_HTTP_API_VERSION, type OpenApiDocument } from './server/openapi.js';
export { servesRoute, SIMULATION_ROUTES, type ServerMode } from './server/server-mode.js';
export { jsonLineLogger, silentLogger, type ServerLogger } from './server/logger.js';
export { ServerMetrics, type ErrorSource } from './server/metrics.js';
export type { ActionValidation, InterruptibleEnv } from './server/env-session.js';
export { DEFAULT_FLOW_LIMITS, type FlowLimits } from './server/flow-control.js';
export { WS_CLOSE } from './server/ws-connection.js';
export type { SessionRouter } from './server/server-context.js';
export { RemoteEnv, type RemoteEnvOptions } from './remote-env.js';
export { RemoteEnvError, SessionLostError } from './client/remote-env-error.js';
export { FailoverTransport, isSessionLost, type ReconnectOptions } from './client/failover-transport.js';
export { fetchSchema, fetchSchemaFromAny, type RemoteTransport, type TransportOptions } from './client/transport.js';
export { WsTransport } from './client/ws-transport.js';
export { HttpTransport } from './client/http-transport.js';
export { REMOTE_ENV_ID, registerRemoteEnv, type RemoteEnvKwargs } from './register.js';
