/**
 * A cumulative histogram in Prometheus' shape: counts per upper bound, plus sum and count.
 *
 * @example
 * ```ts
 * const h = new Histogram([0.001, 0.01, 0.1]);
 * h.observe(0.005);
 * h.cumulativeCounts(); // [0, 1, 1, 1] (the last is +Inf)
 * ```
 */
export class Histogram {
  private readonly counts: number[];
  private total = 0;
  private observations = 0;

  constructor(readonly bounds: readonly number[]) {
    for (let i = 1; i < bounds.length; i++) {
      if (!(bounds[i]! > bounds[i - 1]!)) throw new RangeError('Histogram bounds must be strictly increasing');
    }
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  /** Record one value. */
  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.counts[i]!++;
    this.total += value;
    this.observations++;
  }

  /** Counts of values ≤ each bound, then the count of all values (the `+Inf` bucket). */
  cumulativeCounts(): number[] {
    let running = 0;
    return this.counts.map((c) => (running += c));
  }

  get sum(): number {
    return this.total;
  }

  get count(): number {
    return this.observations;
  }
}

/** Default step-latency buckets in seconds: 100 µs to 10 s. */
export const LATENCY_BUCKETS_S: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
