// A seeded source of uniform numbers (mulberry32), for what must come out the same on every
// run: the benchmark's bootstrap intervals and the security suite's fuzz cases.

/** Numbers in [0, 1) from a 32-bit seed; the same seed gives the same sequence. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
