import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { ProtocolError } from '../protocol/error-codes.js';
import type { SessionRouter } from '../server/server-context.js';
import { FORWARDED_HEADER, PeerUnreachable, forwardRequest } from './forward-request.js';
import { workerOfSession, workerSessionPrefix } from './worker-session-ids.js';

/**
 * The {@link SessionRouter} of one `--workers` process: it knows every worker's loopback port
 * (the primary sends the table whenever a worker starts), keeps its own sessions, and forwards
 * an HTTP request for another worker's session to that worker. A session whose worker is gone
 * (crashed, restarting) answers 404 `SESSION_ERROR` `unknown_session`, as a reaped one does:
 * its episode is lost and the client opens a new session.
 *
 * @example
 * ```ts
 * const router = new PeerRouter(0);
 * router.setPeers({ 1: 41234 });
 * createServer({ envId: 'GuessNumber-v0', router });
 * ```
 */
export class PeerRouter implements SessionRouter {
  readonly sessionIdPrefix: string;
  private peers = new Map<number, number>();
  /** Kept-alive loopback connections to the other workers. */
  private readonly agent = new Agent({ keepAlive: true });

  constructor(readonly index: number) {
    this.sessionIdPrefix = workerSessionPrefix(index);
  }

  /** Replace the table of worker index → loopback port. */
  setPeers(peers: Readonly<Record<number, number>>): void {
    this.peers = new Map(Object.entries(peers).map(([index, port]) => [Number(index), port]));
  }

  async forward(sessionId: string, req: IncomingMessage, res: ServerResponse, body?: Buffer): Promise<boolean> {
    const owner = workerOfSession(sessionId);
    // Ours, not a worker id, or already forwarded once (never loop): answered here.
    if (owner === undefined || owner === this.index || req.headers[FORWARDED_HEADER] !== undefined) return false;
    const port = this.peers.get(owner);
    try {
      if (port === undefined) throw new PeerUnreachable('not running');
      await forwardRequest(req, res, { port, agent: this.agent, by: `w${this.index}` }, body);
      return true;
    } catch (err) {
      if (!(err instanceof PeerUnreachable)) throw err;
      throw new ProtocolError(
        'SESSION_ERROR',
        `No open session "${sessionId}": worker ${owner}, which held it, is gone (${err.message}); its episode is lost. Create a new session with POST /sessions.`,
        { reason: 'unknown_session', status: 404 },
      );
    }
  }

  /** Drop the kept-alive connections (at shutdown). */
  close(): void {
    this.agent.destroy();
  }
}
