/** A seeded pseudo-random source (mulberry32): the same seed gives the same fleet, track for track. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  between(min: number, max: number): number;
  /** Approximately normal, mean 0, standard deviation `sd` (sum of uniforms). */
  noise(sd: number): number;
  pick<T>(items: readonly T[]): T;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    between: (min, max) => min + (max - min) * next(),
    noise: (sd) => (next() + next() + next() + next() - 2) * sd * Math.sqrt(3),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}
