/**
 * `sqlenv dashboard RUN_DIR [--port P] [--host H]`: serves a training run's dashboard locally;
 * the page polls metrics.jsonl and redraws while training runs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DashboardServer } from '../train/dashboard/dashboard-server.js';
import { parseCommandArgs } from './command-args.js';

const USAGE = 'usage: sqlenv dashboard RUN_DIR [--port 8080] [--host 127.0.0.1]';

/** Entry point of `sqlenv dashboard`; resolves when the server is stopped (Ctrl-C). */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('dashboard', USAGE, {
    args: argv,
    allowPositionals: true,
    options: { port: { type: 'string', default: '8080' }, host: { type: 'string', default: '127.0.0.1' }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (!parsed.ok) return parsed.exitCode;
  const { values, positionals } = parsed.args;
  const runDir = positionals[0];
  if (!runDir) {
    console.error(USAGE);
    return 2;
  }
  if (!existsSync(join(runDir, 'metrics.jsonl'))) {
    console.error(`sqlenv dashboard: ${runDir} has no metrics.jsonl yet; pass a run directory written by \`sqlenv train\` or \`npm run demo\`.`);
    return 2;
  }
  const server = new DashboardServer(runDir);
  const url = await server.listen(Number(values.port), values.host);
  console.log(`dashboard of ${runDir} at ${url} (Ctrl-C to stop)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}
