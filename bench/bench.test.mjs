// The benchmark's own logic (its statistics: stats.test.mjs): the generated site, wrk's report, the gate's twin
// page and the docs/performance.md tables. The measurements themselves run in `npm run bench`.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { buildPhases } from './build.mjs';
import { parseWrk, processCpu, TWIN_PATH, twinSite } from './gate.mjs';
import { generateDocs, GENERATED_DIR } from './generate-docs.mjs';
import { rewrite } from './lib.mjs';
import { addVerdicts, renderPerformance } from './report.mjs';

const temp = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-test-'));
  temp.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the site's copies", () => {
  it('refuses to edit a copy whose text has changed', () => {
    expect(rewrite('a b c', 'b', 'x', 'b')).toBe('a x c');
    expect(() => rewrite('a b c', 'z', 'x', 'the z')).toThrow(/cannot find the z/);
  });
});

describe("Docusaurus's build phases", () => {
  it('reads the bundling and static-rendering times, in seconds, from the perf logger', () => {
    const output = [
      '[PERF] Build > en > Bundling with rspack - 24.13 seconds! - (Heap 88mb -> 168mb)',
      '[PERF] Build > en > SSG > Thread pool - 13.94 seconds! - (Heap 259mb -> 263mb)',
      '[PERF] Build > en > SSG - 850.5 ms - (Heap 256mb -> 263mb)',
    ].join('\n');
    expect(buildPhases(output)).toEqual({ bundleS: 24.1, ssgS: 0.9 });
    expect(buildPhases('[SUCCESS] Generated static files')).toEqual({ bundleS: null, ssgS: null });
  });
});

describe('generated docs', () => {
  it('writes the asked number of pages in sidebar groups whose links all resolve', () => {
    const docs = tempDir();
    generateDocs(docs, 120);
    const base = join(docs, GENERATED_DIR);
    const groups = readdirSync(base).sort();
    expect(groups).toEqual(['group-01', 'group-02', 'group-03']);
    const pages = groups.flatMap((group) =>
      readdirSync(join(base, group))
        .filter((name) => name.endsWith('.md'))
        .map((name) => join(base, group, name)),
    );
    expect(pages).toHaveLength(120);
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      expect(text).toMatch(/^---\ntitle: /);
      for (const [, target] of text.matchAll(/\]\(([^)]+\.md)\)/g)) {
        expect(existsSync(resolve(dirname(page), target)), `${page} links to ${target}`).toBe(true);
      }
    }
    expect(JSON.parse(readFileSync(join(base, 'group-03', '_category_.json'), 'utf8')).label).toBe('Recipes 101–120');
  });

  it('replaces an earlier, larger set', () => {
    const docs = tempDir();
    generateDocs(docs, 120);
    generateDocs(docs, 10);
    expect(readdirSync(join(docs, GENERATED_DIR))).toEqual(['group-01']);
  });
});

const WRK_REPORT = `Running 5s test @ http://127.0.0.1:4000/docs/x/
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.10ms    1.05ms  30.12ms   90.00%
    Req/Sec    15.20k     1.01k   16.90k    70.00%
  Latency Distribution
     50%    1.87ms
     75%    2.30ms
     90%    3.10ms
     99%  812.00us
  75612 requests in 5.00s, 850.10MB read
Requests/sec:  15119.42
Transfer/sec:    170.00MB
`;

describe("wrk's report", () => {
  it('gives requests/s and the p50 and p99 latency in milliseconds', () => {
    expect(parseWrk(WRK_REPORT, 'u')).toEqual({ rps: 15119.42, requests: 75612, p50: 1.87, p99: 0.812 });
    expect(parseWrk(WRK_REPORT.replace('1.87ms', '1.20s'), 'u').p50).toBe(1200);
  });

  it("reads a process's CPU time, its first thread's within the whole, and nothing for a process that is gone", () => {
    const before = processCpu(process.pid);
    expect(before).not.toBeNull();
    // Spins until the kernel has counted a tick of it (10 ms each), at most 2 s: on a loaded
    // machine a 60 ms spin could be given less than one tick of a core.
    let spin = 0;
    let after;
    const end = Date.now() + 2000;
    do {
      for (const slice = Date.now() + 20; Date.now() < slice;) spin += 1;
      after = processCpu(process.pid);
    } while (after.main <= before.main && Date.now() < end);
    expect(spin).toBeGreaterThan(0);
    expect(after.main).toBeGreaterThan(before.main);
    expect(after.all).toBeGreaterThanOrEqual(after.main);
    expect(processCpu(2 ** 22 + 1)).toBeNull();
  });

  it('fails the run when any answer was an error or a socket failed', () => {
    expect(() => parseWrk(WRK_REPORT + '  Non-2xx or 3xx responses: 12\n', 'u')).toThrow(/failed requests/);
    expect(() => parseWrk(WRK_REPORT + '  Socket errors: connect 0, read 3, write 0, timeout 0\n', 'u')).toThrow();
    expect(() => parseWrk('garbage', 'u')).toThrow(/unexpected/);
  });
});

describe("the gate's twin page", () => {
  function build(access) {
    const dir = tempDir();
    mkdirSync(join(dir, 'docs', 'a'), { recursive: true });
    writeFileSync(join(dir, 'docs', 'a', 'index.html'), '<p>private</p>');
    writeFileSync(join(dir, '404.html'), 'missing');
    const page = { url: '/docs/a/', file: 'docs/a/index.html', contentType: 'text/html', size: 14, etag: '"x"' };
    const manifest = {
      version: 1,
      entries: {
        '/docs/a': { ...page, kind: 'page', access, immutable: false },
        '/404.html': { ...page, url: '/404.html', file: '404.html', kind: 'file', access: 'public', immutable: false },
      },
      notFound: '/404.html',
      inlineScriptHashes: [],
    };
    writeFileSync(join(dir, 'portal-manifest.json'), JSON.stringify(manifest));
    return dir;
  }

  it('is a public entry naming the private page’s own file, and leaves the build alone', () => {
    const source = build('private');
    const before = readFileSync(join(source, 'portal-manifest.json'), 'utf8');
    const dir = twinSite(source, '/docs/a/', join(tempDir(), 'site'));
    const manifest = JSON.parse(readFileSync(join(dir, 'portal-manifest.json'), 'utf8'));
    const twin = manifest.entries[TWIN_PATH.replace(/\/$/, '')];
    expect(twin).toMatchObject({ file: 'docs/a/index.html', access: 'public', kind: 'page', etag: '"x"' });
    expect(manifest.entries['/docs/a'].access).toBe('private');
    expect(readFileSync(join(dir, 'docs', 'a', 'index.html'), 'utf8')).toBe('<p>private</p>');
    expect(readFileSync(join(source, 'portal-manifest.json'), 'utf8')).toBe(before);
  });

  it('refuses a page that is already public', () => {
    expect(() => twinSite(build('public'), '/docs/a/', join(tempDir(), 'site'))).toThrow(/not a private page/);
  });
});

describe('docs/performance.md tables', () => {
  const meta = { measuredAt: '2026-11-22T08:00:00.000Z', command: 'npm run bench', machine: 'test', seconds: 600 };

  it('replaces only the results section and gives each ratio its interval and verdict', async () => {
    const text = '# Performance\n\nIntro.\n\n<!-- results:start -->\n\nstale-table\n\n<!-- results:end -->\n\nAfter.\n';
    const out = await renderPerformance(text, {
      meta: { ...meta, parts: { build: 212, gate: 150 } },
      'build.faster_vs_webpack_wall': 0.3,
      'build.faster_vs_webpack_wall.ci_low': 0.28,
      'build.faster_vs_webpack_wall.ci_high': 0.33,
      'build.faster_vs_webpack_wall_spread': [0.28, 0.33],
      'gate.private_vs_public_rps': 0.7,
      'gate.private_vs_public_rps.ci_low': 0.6,
      'gate.private_vs_public_rps.ci_high': 0.75,
      'search.query_p95_ms': 12,
    });
    expect(out).toContain('Intro.');
    expect(out).toContain('After.');
    expect(out).not.toContain('stale-table');
    expect(out).toContain('(build 212 s, gate 150 s)');
    expect(out).toMatch(
      /`build\.faster_vs_webpack_wall` +\|[^\n]*\| 0\.3 \(0\.28 to 0\.33\), 2 rounds +\| ≤ 0\.40 +\| met +\|/,
    );
    expect(out).toMatch(
      /`gate\.private_vs_public_rps` +\|[^\n]*\| 0\.7 \(0\.6 to 0\.75\) +\| ≥ 0\.80 +\| \*\*missed\*\* +\|/,
    );
    expect(out).toMatch(/`client\.lcp_vs_ungated` +\|[^\n]*not measured/);
  });

  it('calls a ratio whose interval holds its goal within noise, and one of a single round without an interval', async () => {
    const text = '<!-- results:start -->\n<!-- results:end -->\n';
    const out = await renderPerformance(text, {
      meta,
      'gate.recorded_vs_unrecorded_rps': 0.983,
      'gate.recorded_vs_unrecorded_rps.ci_low': 0.869,
      'gate.recorded_vs_unrecorded_rps.ci_high': 1.066,
      'gate.fast_path_on_vs_off_rps': 1.4,
      'gate.fast_path_on_vs_off_rps.ci_low': 1.2,
      'gate.fast_path_on_vs_off_rps.ci_high': 1.6,
      'gate.private_vs_nginx_rps': 0.6,
      'gate.private_vs_nginx_rps_spread': [0.6],
    });
    expect(out).toMatch(
      /`gate\.recorded_vs_unrecorded_rps` +\|[^\n]*\| 0\.983 \(0\.869 to 1\.066\) +\| ≥ 0\.95 +\| \*\*within noise\*\*/,
    );
    expect(out).toMatch(/`gate\.fast_path_on_vs_off_rps` +\|[^\n]*\| 1\.4 \(1\.2 to 1\.6\) +\| ≥ 1\.15 +\| met +\|/);
    expect(out).toMatch(
      /`gate\.private_vs_nginx_rps` +\|[^\n]*\| 0\.6, 1 round +\| ≥ 0\.50 +\| \*\*one round: no interval\*\*/,
    );
  });

  it('writes each measured goal’s verdict beside its ratio, and none for what was not measured', () => {
    const results = addVerdicts({
      'gate.private_vs_node_http_rps': 0.7,
      'gate.private_vs_node_http_rps.ci_low': 0.62,
      'gate.private_vs_node_http_rps.ci_high': 0.79,
      'client.lcp_vs_client_guard': 0.48,
      'client.lcp_vs_client_guard.ci_low': 0.44,
      'client.lcp_vs_client_guard.ci_high': 0.53,
      'gate.public_vs_node_http_rps': 0.8,
      'gate.public_vs_node_http_rps.ci_low': 0.7,
      'gate.public_vs_node_http_rps.ci_high': 0.9,
    });
    expect(results['gate.private_vs_node_http_rps.verdict']).toBe('missed');
    expect(results['client.lcp_vs_client_guard.verdict']).toBe('within noise');
    // A figure reported without a goal has no verdict; one not measured has none either.
    expect(results['gate.public_vs_node_http_rps.verdict']).toBeUndefined();
    expect(results['client.lcp_vs_ungated.verdict']).toBeUndefined();
  });

  it('reports Lighthouse per page with CLS, the login page signed out, and bolds each missed goal', async () => {
    const text = '<!-- results:start -->\n<!-- results:end -->\n';
    const out = await renderPerformance(text, {
      meta,
      'lighthouse.runs': 5,
      'lighthouse.pages': { home: '/', login: '/login' },
      'lighthouse.home.mobile.performance': 96,
      'lighthouse.home.mobile.cls': 0,
      'lighthouse.home.desktop.performance': 99,
      'lighthouse.home.desktop.cls': 0.02,
      'lighthouse.login.mobile.accessibility': 100,
      'lighthouse.login.mobile.cls': 0,
    });
    expect(out).toMatch(/\| home \(`\/`\) +\| mobile +\| 96 +\|[^\n]*\| 0 +\|/);
    expect(out).toMatch(/\| home \(`\/`\) +\| desktop +\| \*\*99\*\* +\|[^\n]*\| \*\*0\.02\*\* +\|/);
    expect(out).toMatch(/\| login, signed out \(`\/login`\) +\| mobile +\| not measured +\| 100 +\|/);
    expect(out).toContain('performance 100 desktop and ≥ 95 mobile');
  });

  it('refuses a file that lost its markers', async () => {
    await expect(renderPerformance('# Performance\n', { meta })).rejects.toThrow(/markers/);
  });
});
