import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';

import { LATENCY_BUCKETS, Metrics, surfaceOfFile, surfaceOfRoute, type Access, type Surface } from './metrics.js';

const sources = {
  store: () => ({ audit: { queued: 0, dropped: 0, failedWrites: 0 }, ready: true }),
  redisErrors: () => 0,
};

/** The lines of one metric family in an exposition. */
function family(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name}_`));
}

describe('request metrics counted in plain arrays', () => {
  // Observations on and beside every bucket bound, for several surfaces, access classes and statuses.
  const observations: [Surface, Access, number, number][] = [];
  for (const [i, le] of LATENCY_BUCKETS.entries()) {
    observations.push(
      ['page', 'private', 200, le],
      ['asset', 'public', 200, le / 2],
      ['mcp', 'none', i % 2 ? 404 : 200, le * 1.5],
    );
  }
  observations.push(['page', 'private', 200, 9], ['page', 'public', 304, 0], ['markdown', 'private', 403, 0.0001]);

  it('expose the same lines prom-client’s own Histogram and Counter would', async () => {
    const metrics = new Metrics(sources);
    const reference = new Registry();
    const histogram = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer a request, by surface and access',
      labelNames: ['surface', 'access'],
      buckets: [...LATENCY_BUCKETS],
      registers: [reference],
    });
    const counter = new Counter({
      name: 'portal_http_requests_total',
      help: 'x',
      labelNames: ['surface', 'access', 'status'],
      registers: [reference],
    });
    for (const [surface, access, status, seconds] of observations) {
      metrics.observeRequest(surface, access, status, seconds);
      histogram.observe({ surface, access }, seconds);
      counter.inc({ surface, access, status: String(status) });
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
    const slot = metrics.tally.slot('page', 'private', 200);
    for (let i = 0; i < 5; i++) metrics.tally.count(slot, 0.0002);
    metrics.hot.sessionHits += 5;
    metrics.hot.fastPathAnswers += 5;
    const first = await metrics.registry.metrics();
    expect(first).toContain('portal_http_requests_total{surface="page",access="private",status="200"} 5');
    expect(first).toContain('portal_session_checks_total{result="hit"} 5');
    expect(first).toContain('portal_http_fast_path_requests_total 5');
    expect(first).toContain(
      'portal_http_request_duration_seconds_bucket{le="0.0005",surface="page",access="private"} 5',
    );
    metrics.tally.count(slot, 0.003);
    metrics.hot.sessionHits++;
    const second = await metrics.registry.metrics();
    expect(second).toContain('portal_http_requests_total{surface="page",access="private",status="200"} 6');
    expect(second).toContain('portal_session_checks_total{result="hit"} 6');
    expect(second).toContain('portal_http_fast_path_requests_total 5');
    expect(second).toContain(
      'portal_http_request_duration_seconds_bucket{le="0.0025",surface="page",access="private"} 5',
    );
    expect(second).toContain(
      'portal_http_request_duration_seconds_bucket{le="0.005",surface="page",access="private"} 6',
    );
    expect(second).toContain('portal_http_request_duration_seconds_count{surface="page",access="private"} 6');
    // The same slot for the same surface, access and status; a new one otherwise.
    expect(metrics.tally.slot('page', 'private', 200)).toBe(slot);
    expect(metrics.tally.slot('page', 'private', 403)).not.toBe(slot);
    expect(metrics.tally.slot('markdown', 'private', 200)).not.toBe(slot);
  });
});

describe('metric types and names', () => {
  it('types the running totals of other parts as counters that follow them', async () => {
    const totals = { dropped: 0, failedWrites: 0, redis: 0 };
    const metrics = new Metrics({
      store: () => ({ audit: { queued: 0, dropped: totals.dropped, failedWrites: totals.failedWrites }, ready: true }),
      redisErrors: () => totals.redis,
    });
    const names = ['portal_audit_dropped_events_total', 'portal_database_errors_total', 'portal_redis_errors_total'];
    const first = await metrics.registry.metrics();
    for (const name of names) {
      expect(first).toContain(`# TYPE ${name} counter`);
      expect(first).toContain(`\n${name} 0\n`);
    }
    Object.assign(totals, { dropped: 3, failedWrites: 2, redis: 7 });
    const second = await metrics.registry.metrics();
    expect(second).toContain('\nportal_audit_dropped_events_total 3\n');
    expect(second).toContain('\nportal_database_errors_total 2\n');
    expect(second).toContain('\nportal_redis_errors_total 7\n');
    // Read twice without change: the same totals, not added again.
    totals.redis = 9;
    await metrics.registry.metrics();
    const third = await metrics.registry.metrics();
    expect(third).toContain('\nportal_redis_errors_total 9\n');
    expect(third).toContain('\nportal_audit_dropped_events_total 3\n');
    // Every portal_*_total is a counter (prom-client's own nodejs_active_resources_total is a gauge, not ours).
    const types = [...third.matchAll(/^# TYPE (portal_\S+_total) (\S+)$/gm)];
    expect(types.length).toBeGreaterThanOrEqual(7);
    for (const [, name, type] of types) expect(type, name).toBe('counter');
  });

  it('exposes Node’s default metrics under their standard names', async () => {
    const text = await new Metrics(sources).registry.metrics();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE process_resident_memory_bytes gauge');
    expect(text).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(text).not.toMatch(/^# TYPE portal_(process|nodejs)_/m);
  });
});

describe('surfaces', () => {
  it('names a file of the site by what it is', () => {
    const file = (url: string, kind: 'page' | 'file', contentType: string) => ({ url, kind, contentType });
    expect(surfaceOfFile(file('/docs/layout-engine/', 'page', 'text/html; charset=utf-8'))).toBe('page');
    expect(surfaceOfFile(file('/docs/layout-engine.md', 'file', 'text/markdown; charset=utf-8'))).toBe('markdown');
    expect(surfaceOfFile(file('/llms/player/index.md', 'file', 'text/markdown; charset=utf-8'))).toBe('llms');
    expect(surfaceOfFile(file('/assets/js/main.1a2b.js', 'file', 'text/javascript'))).toBe('asset');
  });

  it('names a route the gate answers by its pattern', () => {
    expect(
      ['/api/session', '/api/logout', '/api/admin/readers/:uid', '/api/search', '/mcp', '/llms-full.txt'].map(
        surfaceOfRoute,
      ),
    ).toEqual(['session', 'session', 'admin', 'search', 'mcp', 'llms']);
    expect(['/readyz', '/api/tokens/:id', '/api/feedback', '/*', undefined].map(surfaceOfRoute)).toEqual([
      'operations',
      'tokens',
      'feedback',
      'other',
      'other',
    ]);
  });
});
