import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';

import { LATENCY_BUCKETS, Metrics } from './metrics.js';

const sources = {
  store: () => ({ audit: { queued: 0, dropped: 0, failedWrites: 0 }, ready: true }),
  redisErrors: () => 0,
};

/** The lines of one metric family in an exposition. */
function family(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name}_`));
}

describe('request metrics counted in plain arrays', () => {
  // Observations on and beside every bucket bound, for three classes and several statuses.
  const observations: [string, number, number][] = [];
  for (const [i, le] of LATENCY_BUCKETS.entries()) {
    observations.push(['private', 200, le], ['public', 200, le / 2], ['api', i % 2 ? 404 : 200, le * 1.5]);
  }
  observations.push(['private', 200, 9], ['public', 304, 0], ['private', 403, 0.0001]);

  it('expose the same lines prom-client’s own Histogram and Counter would', async () => {
    const metrics = new Metrics(sources);
    const reference = new Registry();
    const histogram = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer a request, by access class',
      labelNames: ['class'],
      buckets: [...LATENCY_BUCKETS],
      registers: [reference],
    });
    const counter = new Counter({
      name: 'portal_http_requests_total',
      help: 'x',
      labelNames: ['class', 'status'],
      registers: [reference],
    });
    for (const [access, status, seconds] of observations) {
      metrics.observeRequest(access, status, seconds);
      histogram.observe({ class: access }, seconds);
      counter.inc({ class: access, status: String(status) });
    }
    const ours = await metrics.registry.metrics();
    const theirs = await reference.metrics();
    for (const name of ['portal_http_request_duration_seconds', 'portal_http_requests_total']) {
      expect(family(ours, name).sort()).toEqual(family(theirs, name).sort());
      expect(family(ours, name).length).toBeGreaterThan(3);
    }
    expect(ours).toContain('# TYPE portal_http_request_duration_seconds histogram');
  });

  it('add what came in since the last scrape, once', async () => {
    const metrics = new Metrics(sources);
    const slot = metrics.tally.slot('private', 200);
    for (let i = 0; i < 5; i++) metrics.tally.count(slot, 0.0002);
    metrics.hot.sessionHits += 5;
    metrics.hot.fastPathAnswers += 5;
    const first = await metrics.registry.metrics();
    expect(first).toContain('portal_http_requests_total{class="private",status="200"} 5');
    expect(first).toContain('portal_session_checks_total{result="hit"} 5');
    expect(first).toContain('portal_http_fast_path_requests_total 5');
    expect(first).toContain('portal_http_request_duration_seconds_bucket{le="0.0005",class="private"} 5');
    metrics.tally.count(slot, 0.003);
    metrics.hot.sessionHits++;
    const second = await metrics.registry.metrics();
    expect(second).toContain('portal_http_requests_total{class="private",status="200"} 6');
    expect(second).toContain('portal_session_checks_total{result="hit"} 6');
    expect(second).toContain('portal_http_fast_path_requests_total 5');
    expect(second).toContain('portal_http_request_duration_seconds_bucket{le="0.0025",class="private"} 5');
    expect(second).toContain('portal_http_request_duration_seconds_bucket{le="0.005",class="private"} 6');
    expect(second).toContain('portal_http_request_duration_seconds_count{class="private"} 6');
    // The same slot for the same class and status; a new one otherwise.
    expect(metrics.tally.slot('private', 200)).toBe(slot);
    expect(metrics.tally.slot('private', 403)).not.toBe(slot);
  });
});
