import { describe, expect, it } from 'vitest';
import { NoisyAgent, OracleAgent, RandomAgent, SQLEnv, runEpisodes } from '../../envs/sql/index.js';
import { useFixtureEnv } from './fixture-env.js';

const concert = useFixtureEnv();

const envFactory = (options: ConstructorParameters<typeof SQLEnv>[0] = {}) => () => new SQLEnv({ dataset: concert.dataset, pool: concert.pool, ...options });
const allQuestions = () => concert.dataset.questions.map((q) => q.id);

describe('baseline agents on the fixture', () => {
  it('oracle answers every question correctly', async () => {
    const report = await runEpisodes(envFactory(), new OracleAgent(concert.dataset), { episodes: 12, questionIds: allQuestions() });
    expect(report.success_rate).toBe(1);
    expect(report.error_counts).toEqual({});
    // Shaping telescopes to zero: a clean correct episode earns exactly `correct`.
    expect(report.mean_return).toBeCloseTo(1, 9);
  });

  it('oracle answering with SQL is judged by execution match', async () => {
    const report = await runEpisodes(envFactory({ answerMode: 'sql' }), new OracleAgent(concert.dataset, { answerWithSql: true }), {
      episodes: 6,
      questionIds: allQuestions(),
    });
    expect(report.success_rate).toBe(1);
    // The noisy agent garbles the same plan; under answerMode 'sql' it answers with SQL too.
    const noisy = await runEpisodes(envFactory({ answerMode: 'sql' }), new NoisyAgent(concert.dataset, { seed: 1, answerWithSql: true }), { episodes: 30, questionIds: allQuestions() });
    expect(noisy.success_rate).toBeGreaterThanOrEqual(0.95);
    // Answering with values where SQL is expected fails: the option is what makes it pass.
    const values = await runEpisodes(envFactory({ answerMode: 'sql' }), new NoisyAgent(concert.dataset, { seed: 1 }), { episodes: 30, questionIds: allQuestions() });
    expect(values.success_rate).toBeLessThan(0.5);
  });

  it('oracle with describeTables: false queries and answers at once, still always right', async () => {
    const agent = new OracleAgent(concert.dataset, { describeTables: false });
    const report = await runEpisodes(envFactory(), agent, { episodes: 12, questionIds: allQuestions() });
    expect(report.success_rate).toBe(1);
    // Exactly two steps per episode: query, then answer.
    expect(report.mean_steps).toBe(2);
    const describing = await runEpisodes(envFactory(), new OracleAgent(concert.dataset), { episodes: 12, questionIds: allQuestions() });
    expect(describing.mean_steps).toBeGreaterThan(2);
  });

  it('noisy succeeds through tolerance; strict mode refuses its calls', async () => {
    const tolerant = await runEpisodes(envFactory(), new NoisyAgent(concert.dataset, { seed: 1 }), { episodes: 30, questionIds: allQuestions() });
    expect(tolerant.success_rate).toBeGreaterThanOrEqual(0.95);
    expect(Object.values(tolerant.repair_counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(30);
    const strict = await runEpisodes(envFactory({ actionMode: 'strict' }), new NoisyAgent(concert.dataset, { seed: 1 }), { episodes: 30, questionIds: allQuestions() });
    // Strict mode refuses the garbled calls: many errors, a lower return (the oracle's fallback
    // answer is canonical, so episodes can still end correctly).
    const strictErrors = Object.values(strict.error_counts).reduce((a, b) => a + b, 0);
    expect(strictErrors).toBeGreaterThan(30);
    expect(Object.values(tolerant.error_counts)).toEqual([]);
    expect(strict.mean_return).toBeLessThan(tolerant.mean_return);
  });

  it('random scores about nothing and is reproducible', async () => {
    const a = await runEpisodes(envFactory(), new RandomAgent(3), { episodes: 20, seed: 5 });
    const b = await runEpisodes(envFactory(), new RandomAgent(3), { episodes: 20, seed: 5 });
    expect(a.success_rate).toBeLessThanOrEqual(0.1);
    expect(b).toEqual(a);
  });

  it('garbles with every form it knows', () => {
    expect(NoisyAgent.garbles.length).toBeGreaterThanOrEqual(12);
  });
});
