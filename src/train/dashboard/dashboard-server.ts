/**
 * A small local HTTP server for a run directory: `/` renders the dashboard from the current
 * metrics (live mode, the page polls), `/metrics.jsonl` and `/plots/*.svg` serve the files.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseMetrics } from '../metrics/metrics-log.js';
import { renderDashboardHtml } from './dashboard-page.js';

/**
 * Serves one run directory's dashboard on localhost until closed.
 *
 * @example
 * ```ts
 * const server = new DashboardServer('runs/demo');
 * const url = await server.listen(8080);
 * // …
 * await server.close();
 * ```
 */
export class DashboardServer {
  private server: Server | undefined;

  constructor(readonly runDir: string) {}

  /** Starts listening (port 0 picks a free port); resolves to the page URL. */
  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    const server = createServer((req, res) => {
      void this.handle(req.url ?? '/').then(
        ({ status, type, body }) => {
          res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
          res.end(body);
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        },
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    const address = server.address() as AddressInfo;
    return `http://${host}:${address.port}/`;
  }

  private async handle(url: string): Promise<{ status: number; type: string; body: string }> {
    const path = decodeURIComponent(url.split('?')[0] ?? '/');
    const metricsPath = join(this.runDir, 'metrics.jsonl');
    if (path === '/' || path === '/dashboard.html') {
      const text = await readFile(metricsPath, 'utf8').catch(() => '');
      return { status: 200, type: 'text/html; charset=utf-8', body: renderDashboardHtml(parseMetrics(text), { title: this.runDir, live: true }) };
    }
    if (path === '/metrics.jsonl') {
      return { status: 200, type: 'application/x-ndjson', body: await readFile(metricsPath, 'utf8').catch(() => '') };
    }
    const safe = normalize(path).replace(/^(\.\.[/\\])+/, '');
    if (/^\/plots\/[\w-]+\.svg$/.test(safe)) {
      const body = await readFile(join(this.runDir, safe), 'utf8').catch(() => undefined);
      if (body !== undefined) return { status: 200, type: 'image/svg+xml', body };
    }
    return { status: 404, type: 'text/plain', body: `not found: ${path}` };
  }

  /** Stops the server. Idempotent. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
