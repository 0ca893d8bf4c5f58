import { Agent, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { RemoteError } from '../remote-error.js';

/** Headers that describe one hop of a connection, not the request (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** Marks a request one worker passed to another, so it is never passed on again. */
export const FORWARDED_HEADER = 'x-sqlenv-forwarded-by';

/** Why a request could not be forwarded: the peer refused the connection or failed before answering. */
export class PeerUnreachable extends RemoteError {
  override readonly name = 'PeerUnreachable';
}

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
  return out;
}

/**
 * Pass one HTTP request to `127.0.0.1:port` as is (method, path, end-to-end headers, streamed
 * body — or `body`, when the caller already read it) and stream the answer back. Rejects with {@link PeerUnreachable} when nothing was
 * answered yet (so the caller can still answer an error); after the answer started, a failure
 * only cuts the response short.
 *
 * @example
 * ```ts
 * await forwardRequest(req, res, { port: 41234, agent, by: 'w0' });
 * ```
 */
export function forwardRequest(req: IncomingMessage, res: ServerResponse, target: { port: number; agent: Agent; by: string }, body?: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const proxied = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: req.url,
        agent: target.agent,
        headers: { ...endToEnd(req.headers), ...(body ? { 'content-length': String(body.length) } : {}), [FORWARDED_HEADER]: target.by },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
        answer.once('end', () => resolve());
        answer.once('error', () => {
          res.destroy();
          resolve();
        });
      },
    );
    proxied.once('error', (err) => {
      if (res.headersSent) {
        res.destroy();
        resolve();
      } else {
        reject(new PeerUnreachable(err.message));
      }
    });
    if (body) proxied.end(body);
    else req.pipe(proxied);
  });
}
