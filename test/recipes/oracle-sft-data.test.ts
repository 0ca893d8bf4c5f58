/**
 * The SQL recipe's SFT data (sql.sft.mistakeShare, sql.sft.rehearsals), built by the recipe and learned by the
 * generic SFT phase: played here on the letter env with a letter oracle that rehearses 'bbb' (played, not learned).
 */
import { describe, expect, it } from 'vitest';
import { oracleSftData } from '../../src/recipes/sql/oracle-sft-data.js';
import type { ScriptedAgent } from '../../src/train/sft/oracle-trajectories.js';
import { runTraining } from '../../src/train/training-run.js';
import { letterSetup } from '../train/fixtures/letter-run.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempRun = useTempDirs('sqlenv-oracle-sft-data-');

/** A letter oracle that, asked for mistakes, opens the episodes `rehearsesEpisode` picks with a rehearsed 'bbb'. */
function rehearsingOracle(mistakeShare: number, rehearsesEpisode: (episode: number) => boolean, onReset = () => {}): ScriptedAgent<string> {
  let turn = 0;
  let episode = -1;
  let rehearses = false;
  return {
    reset: () => {
      onReset();
      turn = 0;
      rehearses = mistakeShare > 0 && rehearsesEpisode(++episode);
    },
    act: () => (rehearses && turn++ === 0 ? 'bbb' : 'aaa'),
    demonstrates: () => !(rehearses && turn === 1),
  };
}

/** SFT steps and printed lines of an SFT-only letter run on the recipe's data (20 questions, batches of 4). */
async function sftRun(options: Parameters<typeof oracleSftData>[1], rehearsesEpisode: (episode: number) => boolean, onReset?: () => void): Promise<{ steps: number; lines: string }> {
  const lines: string[] = [];
  const setup = letterSetup(tempRun(), { mode: 'sft', sft: { epochs: 1, batchSize: 4, lr: 0.3, formatCheckSamples: 0 }, eval: { episodes: 1 } }, lines);
  setup.sftData = oracleSftData((share) => rehearsingOracle(share, rehearsesEpisode, onReset), options);
  const summary = await runTraining(setup);
  return { steps: summary.sftSteps, lines: lines.join('\n') };
}

describe('oracleSftData', () => {
  it("'besides' keeps every plain trajectory and adds the drawn share's rehearsals; 'instead' keeps one per question", async () => {
    const always = () => true;
    expect((await sftRun({ mistakeShare: 0, rehearsals: 'instead' }, always)).steps).toBe(5);
    const instead = await sftRun({ mistakeShare: 1, rehearsals: 'instead' }, always);
    expect(instead.steps).toBe(5);
    expect(instead.lines).toMatch(/SFT: 20 correct scripted trajectories \(20 with a rehearsed mistake\) from 20 played/);
    const besides = await sftRun({ mistakeShare: 1, rehearsals: 'besides' }, always);
    expect(besides.steps).toBe(10);
    expect(besides.lines).toMatch(/SFT: 20 rehearsed mistakes besides the 20 plain trajectories/);
  });

  it("'besides' plays each question once with mistakes drawn and replays only the ones that drew one", async () => {
    let episodes = 0;
    const run = await sftRun({ mistakeShare: 0.5, rehearsals: 'besides' }, (episode) => episode % 2 === 0, () => void episodes++);
    // 20 questions played once, and the 10 that rehearsed played again without: not 40 episodes.
    expect(episodes).toBe(30);
    expect(run.lines).toMatch(/SFT: 10 rehearsed mistakes besides the 20 plain trajectories/);
    expect(run.steps).toBe(8); // 30 trajectories, batches of 4
  });
});
