import type { Env, ResetOptions, ResetResult, StepResult } from '../env.js';
import { Wrapper } from '../wrapper.js';
import { GymError } from '../gym-error.js';

/** What {@link RecordEpisodeStatistics} puts in `info.episode` at the end of an episode. */
export interface EpisodeStatistics {
  /** Return: the sum of rewards. */
  r: number;
  /** Length: the number of steps. */
  l: number;
  /** Wall-clock seconds since the episode's reset. */
  t: number;
}

/**
 * Adds `info.episode = { r, l, t }` to the step that ends an episode (terminated or truncated),
 * and keeps the last `bufferLength` returns, lengths and times, as Gymnasium's
 * `RecordEpisodeStatistics`.
 *
 * @example
 * ```ts
 * const env = new RecordEpisodeStatistics(make('GuessNumber-v0'));
 * // … at the last step: info.episode → { r: 1, l: 6, t: 0.0004 }
 * env.returnQueue; // recent episode returns
 * ```
 */
export class RecordEpisodeStatistics<Obs = unknown, Act = unknown> extends Wrapper<Obs, Act> {
  readonly returnQueue: number[] = [];
  readonly lengthQueue: number[] = [];
  readonly timeQueue: number[] = [];
  private episodeReturn = 0;
  private episodeLength = 0;
  private episodeStart = performance.now();

  constructor(
    env: Env<Obs, Act>,
    private readonly options: { bufferLength?: number; infoKey?: string } = {},
  ) {
    super(env);
  }

  override async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    const result = await this.env.reset(options);
    this.episodeReturn = 0;
    this.episodeLength = 0;
    this.episodeStart = performance.now();
    return result;
  }

  override async step(action: Act): Promise<StepResult<Obs>> {
    const [obs, reward, terminated, truncated, info] = await this.env.step(action);
    this.episodeReturn += reward;
    this.episodeLength++;
    if (!terminated && !truncated) return [obs, reward, terminated, truncated, info];
    const key = this.options.infoKey ?? 'episode';
    if (key in info) throw new GymError(`RecordEpisodeStatistics: info already has a '${key}' key; pass a different infoKey`);
    const stats: EpisodeStatistics = {
      r: this.episodeReturn,
      l: this.episodeLength,
      t: Math.round((performance.now() - this.episodeStart) * 1e3) / 1e6,
    };
    const limit = this.options.bufferLength ?? 100;
    for (const [queue, value] of [
      [this.returnQueue, stats.r],
      [this.lengthQueue, stats.l],
      [this.timeQueue, stats.t],
    ] as const) {
      queue.push(value);
      if (queue.length > limit) queue.shift();
    }
    return [obs, reward, terminated, truncated, { ...info, [key]: stats }];
  }
}
