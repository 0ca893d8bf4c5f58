import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countingAgent, runCustomAgent } from '../../examples/custom-agent.js';
import { runVectorRollout } from '../../examples/vector-rollout.js';

describe('examples/custom-agent.ts', () => {
  it('answers counting questions by querying the table the question names', () => {
    const obs = { question: 'How many singers are there?', evidence: '', dbId: 'x', tables: ['concert', 'singers'], columns: [], schema: '', result: '', error: '', step: 0, budgetRemaining: 10, history: [] };
    expect(countingAgent(obs)).toEqual({ name: 'query', arguments: { sql: 'SELECT COUNT(*) FROM "singers"' } });
    expect(countingAgent({ ...obs, step: 1, result: '| COUNT(*) |\n| 42 |\n(1 row)' })).toEqual({ name: 'answer', arguments: { value: '42' } });
  });

  it('plays full episodes of counting questions on the bundled train split and solves some, not all', async () => {
    const lines: string[] = [];
    const report = await runCustomAgent({ split: 'train', episodes: 30, log: (l) => lines.push(l) });
    expect(report.episodes).toBe(30);
    expect(lines).toHaveLength(31);
    expect(lines.slice(0, 30).every((l) => /how many|number of/i.test(l))).toBe(true);
    expect(report.correct).toBeGreaterThan(0);
    expect(report.correct).toBeLessThan(30);
  });
});

describe('examples/vector-rollout.ts', () => {
  it('runs oracle agents in a SyncVectorEnv with autoreset and solves every finished episode', async () => {
    const report = await runVectorRollout({ numEnvs: 4, steps: 30, log: () => undefined });
    expect(report.episodes).toBeGreaterThanOrEqual(8);
    expect(report.correct).toBe(report.episodes);
  });
});

describe('the compiled examples in dist/ (npm run build)', () => {
  const root = join(import.meta.dirname, '..', '..');
  const run = (example: string): string =>
    execFileSync(process.execPath, [join(root, 'dist', 'examples', example)], { cwd: root, encoding: 'utf8', env: { ...process.env, SQLENV_URL: '' } /* empty: the example starts its own server */, timeout: 120_000 });

  it('import the package by its name, resolved through package.json "exports"', () => {
    for (const example of ['custom-agent.ts', 'vector-rollout.ts', 'remote-client.ts']) {
      const source = readFileSync(join(root, 'examples', example), 'utf8');
      expect(source).toMatch(/from 'sqlenv'/);
      expect(source).not.toMatch(/from '\.\.?\//);
    }
    expect(run('remote-client.js')).toMatch(/^episode 2: \d steps, return /m);
  });

  it('custom-agent.js runs against the bundled data as written', { timeout: 120_000 }, () => {
    expect(run('custom-agent.js')).toMatch(/^\d+\/20 correct, mean return /m);
  });
});
