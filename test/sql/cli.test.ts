import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as runEval } from '../../src/cli/eval.js';
import { run as runPlay } from '../../src/cli/play.js';
import { createConcertFixture, type ConcertFixture } from './concert-fixture.js';

let fixture: ConcertFixture;

beforeAll(() => {
  fixture = createConcertFixture();
});

afterAll(() => {
  fixture?.cleanup();
});

/** Run a CLI command with console output captured. */
async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void err.push(args.join(' ')));
  try {
    return { code: await fn(), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('sqlenv eval', () => {
  it('prints one JSON object as the last line with --json', async () => {
    const { code, out } = await capture(() => runEval(['--agent', 'oracle', '--dataset', fixture.dir, '--split', 'train', '--episodes', '4', '--seed', '3', '--json']));
    expect(code).toBe(0);
    const report = JSON.parse(out.at(-1)!) as Record<string, unknown>;
    expect(report).toMatchObject({ agent: 'oracle', dataset: fixture.dir, split: 'train', episodes: 4, success_rate: 1, questions: 6, skipped_questions: 1 });
    expect(typeof report.mean_return).toBe('number');
    expect(typeof report.mean_steps).toBe('number');
    expect(report.error_counts).toEqual({});
  }, 30_000);

  it('prints a readable summary without --json', async () => {
    const { code, out } = await capture(() => runEval(['--agent', 'random', '--dataset', fixture.dir, '--episodes', '3']));
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/success rate \d+\.\d%/);
  }, 30_000);

  it('rejects bad options with usage', async () => {
    const { code, err } = await capture(() => runEval(['--agent', 'genius', '--episodes', '0']));
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/--agent must be one of random, oracle, noisy, got "genius"; --episodes must be a positive integer/);
    expect((await capture(() => runEval(['--agent', 'oracle', '--dataset', '/nonexistent/dir']))).code).toBe(1);
  });
});

describe('sqlenv play', () => {
  it('plays an episode from typed actions in any tolerated form', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    input.end(['DESCRIBE singer', 'query(sql="SELECT count(*) FROM singer")', ':tools', 'answer 6', 'n', ''].join('\n'));
    const code = await runPlay(['--dataset', fixture.dir, '--question', 'train-0000'], { input, output });
    expect(code).toBe(0);
    expect(text).toContain('Question: How many singers are there?');
    expect(text).toContain('TABLE singer (6 rows)');
    expect(text).toContain('answer: Submit your final answer');
    expect(text).toContain('Episode over: correct!');
  }, 30_000);
});
