// The benchmark's statistics: every ratio comes from interleaved rounds of a figure and its
// peer, with a bootstrap 95 % confidence interval (the rounds resampled with a seeded
// generator, percentile interval), and a goal is met, missed or within noise by where that
// whole interval lies. docs/performance.md says how each figure is measured.
import { seededRandom } from '../tools/lib/seeded-random.mjs';

export { seededRandom };

/** Resamples per interval: enough for the 2.5th and 97.5th percentiles to settle to 0.001. */
export const RESAMPLES = 4000;
/** The fixed seed: the same rounds always give the same interval. */
export const SEED = 20261130;

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Nearest-rank percentile (`p` in 0..100). */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function round(value, digits = 2) {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/**
 * The percentile bootstrap interval of `statistic` over `samples` (any items: numbers, or
 * pairs of a round): `resamples` draws of as many items with replacement, the statistic of
 * each, and the `level` interval's ends among them. Null for an empty sample.
 */
export function bootstrapInterval(samples, statistic, { resamples = RESAMPLES, level = 0.95, seed = SEED } = {}) {
  if (samples.length === 0) return null;
  const random = seededRandom(seed);
  const n = samples.length;
  const estimates = new Float64Array(resamples);
  const draw = new Array(n);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) draw[i] = samples[Math.floor(random() * n)];
    estimates[b] = statistic(draw);
  }
  estimates.sort();
  // As many estimates below the interval as above it.
  const outside = Math.round(((1 - level) / 2) * resamples);
  return { low: estimates[outside], high: estimates[resamples - 1 - outside] };
}

/** How a ratio is made from its rounds' pairs [figure, peer]. */
export const RATIO_OF = {
  /** Each round's own ratio, their median: a shared machine's drift over minutes stays out. */
  medianOfRatios: (pairs) => median(pairs.map(([a, b]) => a / b)),
  /** The figure's median over the peer's median. */
  ratioOfMedians: (pairs) => median(pairs.map(([a]) => a)) / median(pairs.map(([, b]) => b)),
};

/**
 * A ratio under `key` with its interval beside it: `<key>`, `<key>.ci_low`, `<key>.ci_high`
 * (not for a single round), and each round's own ratio (`<key>_spread`, or `spreadKey`). `figure` and
 * `peer` are the two sides' values, round by round; the rounds are resampled as pairs.
 */
export function ratioWithInterval(
  key,
  figure,
  peer,
  { of = 'medianOfRatios', digits = 3, spreadKey = `${key}_spread` } = {},
) {
  if (figure.length !== peer.length) throw new Error(`${key}: ${figure.length} rounds against ${peer.length}`);
  const pairs = figure.map((value, index) => [value, peer[index]]);
  if (pairs.length === 0) return {};
  const statistic = RATIO_OF[of];
  // One round has no spread to resample: its interval would be the round itself.
  const interval = pairs.length > 1 ? bootstrapInterval(pairs, statistic) : null;
  return {
    [key]: round(statistic(pairs), digits),
    ...(interval && {
      [`${key}.ci_low`]: round(interval.low, digits),
      [`${key}.ci_high`]: round(interval.high, digits),
    }),
    [spreadKey]: pairs.map(([a, b]) => round(a / b, digits)),
  };
}

/** Goals as the report writes them: `≥ 0.80`, `≤ 1.05`, `< 0.5`. */
const TESTS = {
  '≥': (x, goal) => x >= goal,
  '>': (x, goal) => x > goal,
  '≤': (x, goal) => x <= goal,
  '<': (x, goal) => x < goal,
};

/**
 * Met when the whole interval is on the goal's side, missed when the whole interval is on
 * the other side, within noise otherwise. `goal`: { op: '≥' | '>' | '≤' | '<', value }.
 */
export function verdict({ low, high }, { op, value }) {
  const test = TESTS[op];
  if (!test) throw new Error(`no goal of the form ${op} ${value}`);
  if (test(low, value) && test(high, value)) return 'met';
  if (!test(low, value) && !test(high, value)) return 'missed';
  return 'within noise';
}
