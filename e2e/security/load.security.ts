import autocannon from 'autocannon';
import { expect, test } from '@playwright/test';

import { emulatorReaders } from '../readers';
import { IsolatedPortal } from './isolated';
import { full } from './lib';
import { recordFigure } from './record';

const PRIVATE_TEXT = 'Component registry';

test('mixed readers under load: no errors, no wrong answers, bounded memory', async () => {
  const connections = full ? 200 : 50;
  const duration = full ? 60 : 10;
  test.setTimeout((duration * 2 + 90) * 1000);
  // A gate of its own, whose memory is measured; the run's emulator signs the reader in.
  const portal = new IsolatedPortal({}, emulatorReaders.host);
  try {
    await portal.startServer();
    const cookie = await portal.signIn();
    const wrong: string[] = [];
    const expect200 = (what: string, mustContain?: string) => (status: number, body: string) => {
      if (status !== 200 || (mustContain && !body.includes(mustContain))) wrong.push(`${what}: ${status}`);
    };
    const requests = [
      { path: '/', onResponse: expect200('public home') },
      { path: '/docs/Norigin-Spatial-Navigation/', onResponse: expect200('public section') },
      {
        path: '/docs/layout-engine/',
        headers: { cookie },
        onResponse: expect200('signed-in private page', PRIVATE_TEXT),
      },
      {
        path: '/docs/layout-engine/',
        onResponse: (status: number, body: string) => {
          if (status !== 302 || body.includes(PRIVATE_TEXT)) wrong.push(`anonymous private page: ${status}`);
        },
      },
      { path: '/blog/rss.xml', headers: { cookie }, onResponse: expect200('signed-in feed') },
      {
        path: '/blog/rss.xml',
        onResponse: (status: number, body: string) => {
          if (status !== 401 || body !== '') wrong.push(`anonymous feed: ${status}`);
        },
      },
      { path: '/api/session', headers: { cookie }, onResponse: expect200('session check', 'reader@norigin.example') },
    ];
    // Warm up (JIT, caches), then measure memory around the real run.
    await autocannon({ url: portal.baseURL, connections: 20, duration: 3, requests });
    wrong.length = 0;
    const before = portal.serverRss();
    const result = await autocannon({ url: portal.baseURL, connections, duration, requests, timeout: 10 });
    const after = portal.serverRss();
    const growthMb = (after - before) / 1024 / 1024;
    const figures = {
      connections,
      durationS: duration,
      requests: result.requests.total,
      requestsPerS: Math.round(result.requests.average),
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      errors: result.errors,
      timeouts: result.timeouts,
      wrongAnswers: wrong.length,
      rssBeforeMb: Math.round(before / 1024 / 1024),
      rssAfterMb: Math.round(after / 1024 / 1024),
      memoryGrowthMb: Math.round(growthMb * 10) / 10,
    };
    recordFigure('load', figures);
    console.log(`load: ${JSON.stringify(figures)}`);
    expect(result.requests.total).toBeGreaterThan(1000);
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(growthMb).toBeLessThan(50);
  } finally {
    await portal.stop();
  }
});
