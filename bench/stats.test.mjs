// The benchmark's statistics (bench/stats.mjs): the bootstrap interval of a ratio's rounds
// and the verdict of a goal against it. No network, no build.
import { describe, expect, it } from 'vitest';

import {
  bootstrapInterval,
  mean,
  median,
  percentile,
  RATIO_OF,
  ratioWithInterval,
  seededRandom,
  verdict,
} from './stats.mjs';

describe('medians and percentiles', () => {
  it('takes the median of odd and even counts without reordering the input', () => {
    const values = [9, 1, 5];
    expect(median(values)).toBe(5);
    expect(values).toEqual([9, 1, 5]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile([7], 99)).toBe(7);
  });
});

describe('the bootstrap interval', () => {
  it('of two rounds is their range: every resample is one of 1, 2 or 3', () => {
    const interval = bootstrapInterval([1, 3], median);
    expect(interval).toEqual({ low: 1, high: 3 });
  });

  it('of rounds that all agree has no width', () => {
    expect(bootstrapInterval([0.8, 0.8, 0.8, 0.8], median)).toEqual({ low: 0.8, high: 0.8 });
  });

  it("of a large sample's mean agrees with the normal interval, mean ± 1.96 standard errors", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    // 1..100: mean 50.5, population standard deviation √((100² − 1) / 12), standard error a tenth of it.
    const se = Math.sqrt((100 ** 2 - 1) / 12) / 10;
    const { low, high } = bootstrapInterval(values, mean);
    expect(low).toBeCloseTo(50.5 - 1.96 * se, 0);
    expect(high).toBeCloseTo(50.5 + 1.96 * se, 0);
    expect(high - low).toBeGreaterThan(10);
    expect(high - low).toBeLessThan(12.5);
  });

  it('is the same for the same seed and moves with another', () => {
    const values = [0.91, 0.77, 1.12, 0.85, 0.99, 1.04, 0.68, 0.93, 0.88];
    const first = bootstrapInterval(values, median, { seed: 7 });
    expect(bootstrapInterval(values, median, { seed: 7 })).toEqual(first);
    const others = [1, 2, 3, 4, 5].map((seed) => bootstrapInterval(values, mean, { seed }));
    expect(new Set(others.map((interval) => `${interval.low} ${interval.high}`)).size).toBeGreaterThan(1);
  });

  it('is none for no rounds', () => {
    expect(bootstrapInterval([], median)).toBeNull();
  });
});

describe('the seeded generator', () => {
  it('repeats its sequence for a seed, stays in [0, 1) and spreads evenly', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const draws = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(draws);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(mean(draws)).toBeCloseTo(0.5, 1);
    expect(draws.filter((x) => x < 0.1).length).toBeGreaterThan(900);
    expect(draws.filter((x) => x < 0.1).length).toBeLessThan(1100);
  });
});

describe('a ratio with its interval', () => {
  it('keeps the median of the rounds’ ratios as the figure and the interval around it', () => {
    const out = ratioWithInterval('gate.x_vs_y_rps', [90, 80, 100, 70], [100, 100, 100, 100]);
    expect(out['gate.x_vs_y_rps']).toBe(0.85);
    expect(out['gate.x_vs_y_rps_spread']).toEqual([0.9, 0.8, 1, 0.7]);
    expect(out['gate.x_vs_y_rps.ci_low']).toBeGreaterThanOrEqual(0.7);
    expect(out['gate.x_vs_y_rps.ci_low']).toBeLessThanOrEqual(0.85);
    expect(out['gate.x_vs_y_rps.ci_high']).toBeGreaterThanOrEqual(0.85);
    expect(out['gate.x_vs_y_rps.ci_high']).toBeLessThanOrEqual(1);
  });

  it('can be the ratio of the medians, resampled as pairs', () => {
    const figure = [10, 30, 20];
    const peer = [20, 20, 40];
    expect(RATIO_OF.ratioOfMedians(figure.map((a, i) => [a, peer[i]]))).toBe(1);
    const out = ratioWithInterval('build.a_vs_b', figure, peer, { of: 'ratioOfMedians' });
    expect(out['build.a_vs_b']).toBe(1);
    expect(out['build.a_vs_b.ci_low']).toBeLessThan(1);
    expect(out['build.a_vs_b.ci_high']).toBeGreaterThan(1);
  });

  it('gives a single round no interval', () => {
    const out = ratioWithInterval('k', [2], [4]);
    expect(out).toEqual({ k: 0.5, k_spread: [0.5] });
  });

  it('refuses sides of different lengths', () => {
    expect(() => ratioWithInterval('k', [1, 2], [1])).toThrow(/2 rounds against 1/);
  });
});

describe('a verdict', () => {
  const atLeast = { op: '≥', value: 0.8 };
  const atMost = { op: '≤', value: 1.2 };

  it('is met when the whole interval is on the goal’s side', () => {
    expect(verdict({ low: 0.81, high: 0.95 }, atLeast)).toBe('met');
    expect(verdict({ low: 0.8, high: 0.8 }, atLeast)).toBe('met');
    expect(verdict({ low: 1.01, high: 1.19 }, atMost)).toBe('met');
  });

  it('is missed when the whole interval is on the other side', () => {
    expect(verdict({ low: 0.6, high: 0.79 }, atLeast)).toBe('missed');
    expect(verdict({ low: 1.21, high: 1.5 }, atMost)).toBe('missed');
    expect(verdict({ low: 0.5, high: 0.5 }, { op: '<', value: 0.5 })).toBe('missed');
  });

  it('is within noise when the interval holds the goal', () => {
    expect(verdict({ low: 0.7, high: 0.9 }, atLeast)).toBe('within noise');
    expect(verdict({ low: 1.1, high: 1.3 }, atMost)).toBe('within noise');
  });

  it('refuses a goal it cannot read', () => {
    expect(() => verdict({ low: 1, high: 1 }, { op: '=', value: 1 })).toThrow(/no goal/);
  });
});
