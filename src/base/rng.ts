/**
 * Seeded pseudo-random numbers for environments and spaces.
 *
 * The generator is xoshiro128** (Blackman & Vigna, 2018): 128 bits of state, period 2^128 − 1,
 * fast on 32-bit integer arithmetic, which is what JavaScript does well. Seeds are expanded into
 * state with SplitMix32 so that nearby seeds (0, 1, 2, …) give unrelated streams.
 *
 * @example
 * ```ts
 * const rng = new Rng(42);
 * rng.float();     // in [0, 1)
 * rng.int(10);     // in {0, …, 9}
 * rng.getState();  // 4 uint32 words, restorable with setState
 * ```
 */
export class Rng {
  private s: Uint32Array = new Uint32Array(4);
  /** The seed this generator was last seeded with. */
  seedValue: number;

  constructor(seed?: number) {
    this.seedValue = seed ?? randomSeed();
    this.seed(this.seedValue);
  }

  /** Re-seed in place; the same seed always gives the same stream. */
  seed(seed: number): void {
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new RangeError(`seed must be a non-negative safe integer, got ${seed}`);
    }
    this.seedValue = seed;
    // Fold both halves of a 53-bit seed into SplitMix32 so seeds above 2^32 still differ.
    let x = (seed >>> 0) ^ Math.imul(Math.floor(seed / 0x1_0000_0000) >>> 0, 0x9e3779b9);
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.s[i] = (z ^ (z >>> 16)) >>> 0;
    }
    if ((this.s[0]! | this.s[1]! | this.s[2]! | this.s[3]!) === 0) this.s[0] = 1;
  }

  /** The next 32 random bits as an unsigned integer. */
  nextUint32(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1]!, 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1]! << 9) >>> 0;
    s[2] = (s[2]! ^ s[0]!) >>> 0;
    s[3] = (s[3]! ^ s[1]!) >>> 0;
    s[1] = (s[1]! ^ s[2]!) >>> 0;
    s[0] = (s[0]! ^ s[3]!) >>> 0;
    s[2] = (s[2]! ^ t) >>> 0;
    s[3] = rotl(s[3]!, 11);
    return result;
  }

  /** A float in [0, 1) with 53 random bits. */
  float(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** A uniform integer in [0, n) without modulo bias. */
  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`int(n) needs a positive integer, got ${n}`);
    if (n <= 0x1_0000_0000) {
      const limit = 0x1_0000_0000 - (0x1_0000_0000 % n);
      for (;;) {
        const r = this.nextUint32();
        if (r < limit) return r % n;
      }
    }
    return Math.floor(this.float() * n);
  }

  /** A uniform integer in [lo, hi] (inclusive). */
  intBetween(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** A standard normal variate (Box–Muller). */
  normal(): number {
    let u = 0;
    while (u === 0) u = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  /** One element of a non-empty array. */
  choice<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('choice() of an empty array');
    return items[this.int(items.length)]!;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** The generator's state, for checkpoints and determinism checks. */
  getState(): [number, number, number, number] {
    return [this.s[0]!, this.s[1]!, this.s[2]!, this.s[3]!];
  }

  /** Restore a state from {@link getState}. */
  setState(state: readonly number[]): void {
    if (state.length !== 4) throw new RangeError('Rng state has 4 uint32 words');
    for (let i = 0; i < 4; i++) this.s[i] = state[i]! >>> 0;
  }

  /** A new generator whose seed is drawn from this one (for child objects). */
  spawn(): Rng {
    return new Rng(this.nextUint32() * 0x200000 + (this.nextUint32() >>> 11));
  }
}

/**
 * The seed of sub-environment `index` when a vector env is reset with `seed`, as in Gymnasium:
 * `seed + index`.
 *
 * @example
 * ```ts
 * deriveSeed(42, 3); // 45
 * ```
 */
export function deriveSeed(seed: number, index: number): number {
  return seed + index;
}

/**
 * The seed of a named, independent stream of a seeded run: the same (seed, name) always gives the
 * same seed, and different names give unrelated streams (FNV-1a over the name, mixed with the seed,
 * then expanded by {@link Rng}'s SplitMix32). Used so that optional work — a held-out evaluation,
 * say — draws from its own stream and switching it on or off leaves the run's main stream alone.
 *
 * @example
 * ```ts
 * new Rng(streamSeed(0, 'eval/sft/0/validation')).float(); // the same number on every run
 * ```
 */
export function streamSeed(seed: number, name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  // 21 bits of the seed above the hash keep the result a safe integer that still depends on both.
  return (seed % 0x20_0000) * 0x1_0000_0000 + ((h ^ Math.imul(Math.floor(seed / 0x20_0000) >>> 0, 0x9e3779b9)) >>> 0);
}

/** A seed from the operating system's entropy, for unseeded generators. */
export function randomSeed(): number {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (words[0]! & 0x1fffff) * 0x1_0000_0000 + words[1]!;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
