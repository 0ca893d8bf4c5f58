/**
 * The SQL recipe's SFT data: the oracle's trajectories over the questions SFT covers, some of them
 * opening with a rehearsed mistake (`sql.sft.mistakeShare`) that is played for SQLEnv's feedback
 * but not learned, either instead of those questions' plain plays or besides them
 * (`sql.sft.rehearsals`). The trainer's SFT phase learns whatever this returns.
 */
import type { ScriptedAgent } from '../../train/sft/oracle-trajectories.js';
import type { SftDataBuilder } from '../../train/sft/sft-data.js';
import type { RehearsalMode } from './sql-config.js';

/**
 * Makes the oracle that rehearses a mistake in a share `mistakeShare` of its episodes. An episode in which it
 * rehearses nothing must play exactly as the oracle made with share 0 would: 'besides' replays only the questions
 * that drew a mistake to get their plain play.
 */
export type MakeRehearsingOracle<Obs> = (mistakeShare: number) => ScriptedAgent<Obs>;

/**
 * SFT's trajectories with rehearsed mistakes: under 'instead' one play per question, a share of them rehearsing
 * a mistake first; under 'besides' every question's plain play, and besides it the rehearsals of the questions that
 * drew one. For 'besides' each question is played once with mistakes drawn, and only those that drew one are played
 * again without.
 *
 * @example
 * ```ts
 * const sftData = oracleSftData((share) => new OracleAgent(dataset, { mistakeShare: share }), { mistakeShare: 0.3, rehearsals: 'besides' });
 * ```
 */
export function oracleSftData<Obs>(makeOracle: MakeRehearsingOracle<Obs>, options: { mistakeShare: number; rehearsals: RehearsalMode }): SftDataBuilder<Obs> {
  return async (player) => {
    const drawn = await player.play(makeOracle(options.mistakeShare), player.questions);
    if (options.rehearsals === 'instead' || options.mistakeShare === 0) return drawn;
    const rehearsed = drawn.flatMap((t, i) => (t.rehearsed ? [i] : []));
    const replayed = await player.play(makeOracle(0), rehearsed.map((i) => player.questions[i]!));
    const plain = drawn.slice();
    rehearsed.forEach((i, j) => (plain[i] = replayed[j]!));
    player.print(`SFT: ${rehearsed.length} rehearsed mistakes besides the ${plain.length} plain trajectories (sql.sft.rehearsals 'besides')`);
    return [...plain, ...rehearsed.map((i) => drawn[i]!)];
  };
}
