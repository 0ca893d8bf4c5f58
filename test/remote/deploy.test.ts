/**
 * deploy/: the container image, compose file, Kubernetes manifests and HAProxy config stay in
 * step with the code (every `sqlenv serve` flag they pass is accepted, names and paths match),
 * and, where HAProxy is installed, the balancer config keeps HTTP sessions on their replica.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseServeArgs } from '../../src/cli/serve.js';
import { SESSION_HEADER } from '../../src/remote/index.js';
import { startServeProcess } from './fixtures/serve-process.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-haproxy-');
const read = (path: string) => readFileSync(join('deploy', path), 'utf8');
interface Container {
  args: string[];
  env?: { name: string; value?: string }[];
  readinessProbe?: { httpGet?: { path: string } };
}
interface Doc {
  kind: string;
  metadata: { name: string };
  spec: { selector: { matchLabels: Record<string, string> }; template: { spec: { containers: Container[]; volumes: { configMap: { name: string } }[] } } };
}
interface Compose {
  services: {
    sqlenv: { build: unknown; deploy: { replicas: number }; command: string[] };
    lb: { environment: Record<string, string>; volumes: string[] };
  };
}
const manifests = (path: string) => parseAllDocuments(read(path)).map((d) => d.toJS() as Doc);

describe('deploy/', () => {
  it('Dockerfile: copies what exists, runs the package bin with serve flags the CLI accepts', () => {
    const docker = read('Dockerfile');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: { sqlenv: string } };
    const entry = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(docker)![1]!) as string[];
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(docker)![1]!) as string[];
    expect(entry.slice(0, 3)).toEqual(['node', pkg.bin.sqlenv.replace(/^\.\//, ''), 'serve']);
    expect(parseServeArgs([...entry.slice(3), ...cmd], {})).toMatchObject({ host: '0.0.0.0', port: 8000, server: { envId: 'SQLEnv-v0' } });
    for (const [, from] of docker.matchAll(/^COPY (?!--from)(\S+)/gm)) expect(existsSync(from!), from).toBe(true);
    expect(docker).toMatch(/^EXPOSE 8000$/m);
    expect(readFileSync('.dockerignore', 'utf8')).toMatch(/^node_modules$/m);
  });

  it('compose.yaml: replicas of the image behind HAProxy, with serve flags the CLI accepts', () => {
    const compose = parse(read('compose.yaml')) as Compose;
    const { sqlenv, lb } = compose.services;
    expect(sqlenv.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
    expect(sqlenv.deploy.replicas).toBeGreaterThan(1);
    expect(parseServeArgs(sqlenv.command, {}).workers).toBeGreaterThanOrEqual(1);
    expect(lb.environment.SQLENV_BACKEND).toBe('sqlenv');
    expect(lb.volumes).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });

  it('Kubernetes: the Deployment runs accepted flags and is probed on /health; HAProxy resolves its headless Service', () => {
    const [deployment, headless] = manifests('k8s/sqlenv.yaml');
    const container = deployment!.spec.template.spec.containers[0]!;
    expect(parseServeArgs(container.args, {}).workers).toBeGreaterThanOrEqual(1);
    expect(container.readinessProbe?.httpGet?.path).toBe('/health');
    expect(headless).toMatchObject({ kind: 'Service', spec: { clusterIP: 'None', selector: deployment!.spec.selector.matchLabels } });
    const [lb] = manifests('k8s/haproxy.yaml');
    const backend = lb!.spec.template.spec.containers[0]!.env?.find((e) => e.name === 'SQLENV_BACKEND');
    expect(backend?.value).toMatch(new RegExp(`^${headless!.metadata.name}\\.`));
    const kustomization = parse(read('kustomization.yaml')) as { resources: string[]; configMapGenerator: { name: string; files: string[] }[] };
    for (const file of [...kustomization.resources, ...kustomization.configMapGenerator[0]!.files]) expect(existsSync(join('deploy', file)), file).toBe(true);
    expect(lb!.spec.template.spec.volumes[0]!.configMap.name).toBe(kustomization.configMapGenerator[0]!.name);
  });

  it('haproxy.cfg routes HTTP sessions by the header the server sends', () => {
    const cfg = read('haproxy.cfg');
    expect(cfg).toContain(`stick store-response res.hdr(${SESSION_HEADER})`);
    expect(cfg).toContain(`stick match req.hdr(${SESSION_HEADER})`);
    expect(cfg).toMatch(/option httpchk GET \/health/);
  });
});

const haproxy = spawnSync('haproxy', ['-v']).status === 0;

/** A port free on 127.0.0.1 right now (HAProxy binds it next). */
function freePort(): Promise<number> {
  const probe = createNetServer();
  return new Promise((resolve) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    }),
  );
}

/** Where HAProxy is installed: deploy/haproxy.cfg (with static servers instead of DNS) in front of two real servers. */
describe.runIf(haproxy)('deploy/haproxy.cfg in front of two `sqlenv serve` processes', () => {
  it('accepts the config, and keeps each HTTP session on its replica across fresh connections', async () => {
    const servers = await Promise.all([0, 1].map(() => startServeProcess(['--env', 'GuessNumber-v0', '--port', '0'])));
    const dir = tempDir();
    expect(spawnSync('haproxy', ['-c', '-f', 'deploy/haproxy.cfg'], { env: { ...process.env, SQLENV_BACKEND: 'localhost' } }).status).toBe(0);
    const port = await freePort();
    const cfg = read('haproxy.cfg')
      .replace(/^resolvers dns[\s\S]*?accepted_payload_size \d+\n/m, '')
      .replace(/^ {2}log stdout.*$/m, '')
      .replace(/^ {2}bind :8000$/m, `  bind 127.0.0.1:${port}`)
      .replace(/^ {2}server-template .*$/m, servers.map((s, i) => `  server s${i} ${s.url.replace('http://', '')} check inter 200ms`).join('\n'));
    writeFileSync(join(dir, 'haproxy.cfg'), cfg);
    const lb = spawn('haproxy', ['-f', join(dir, 'haproxy.cfg')]);
    try {
      const url = `http://127.0.0.1:${port}`;
      const call = async (method: string, path: string, body?: unknown, session?: string) => {
        for (;;) {
          try {
            const res = await fetch(`${url}${path}`, {
              method,
              headers: { connection: 'close', 'content-type': 'application/json', ...(session ? { [SESSION_HEADER]: session } : {}) },
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            });
            return { status: res.status, data: (await res.json()) as Record<string, unknown> };
          } catch (err) {
            if (!/fetch failed/.test(String(err))) throw err; // HAProxy still starting
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      };
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await call('POST', '/sessions')).data.session_id as string);
      for (const [i, id] of ids.entries()) {
        expect((await call('POST', '/reset', { seed: i }, id)).status).toBe(200);
        for (let s = 0; s <= i; s++) expect((await call('POST', '/step', { action: 1 }, id)).status).toBe(200);
      }
      for (const [i, id] of ids.entries()) expect((await call('GET', '/state', undefined, id)).data).toMatchObject({ session_id: id, step_count: i + 1 });
      for (const id of ids) expect((await call('DELETE', `/sessions/${id}`)).data).toEqual({ session_id: id, closed: true });
      // Both replicas took sessions (least connections), and every one was deleted where it lived.
      for (const s of servers) {
        const metrics = await (await fetch(`${s.url}/metrics`)).text();
        expect(metrics).toMatch(/^sqlenv_sessions_active 0$/m);
        expect(Number(/^sqlenv_sessions_total (\d+)$/m.exec(metrics)![1])).toBeGreaterThan(0);
      }
    } finally {
      lb.kill('SIGTERM');
      for (const s of servers) await s.stop();
    }
  });
});
