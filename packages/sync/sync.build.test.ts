import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { git, makeRepository } from '../../tools/lib/git-repository.mjs';
import { type RunningVerdaccio, startVerdaccio } from '../../tools/lib/verdaccio.mjs';
import { type CachedSource, isCurrent, loadSources, readState, sync, type SyncState } from './index.js';

const work = mkdtempSync(join(tmpdir(), 'portal-sync-'));
const siteDir = join(work, 'site');
mkdirSync(siteDir);

function sources(yaml: string) {
  const file = join(siteDir, 'sources.yaml');
  writeFileSync(file, `sources:\n${yaml}`);
  return loadSources(file, { siteDir });
}

/** A source of the state, with its releases and versions (the test fails here when it has none). */
function cached(state: SyncState, id: string): Required<Pick<CachedSource, 'releases' | 'versions'>> {
  const source = state.sources[id];
  if (!source?.releases || !source.versions) throw new Error(`${id} is not in the state`);
  return { releases: source.releases, versions: source.versions };
}

describe('the git kind, against repositories the test makes', () => {
  const repository = join(work, 'guide');
  const cacheDir = join(work, 'cache-git');
  const entry = `  - id: guide\n    kind: git\n    repository: ${repository}\n    section: guide\n    title: Guide\n    versions: '>=1.0.0'\n`;

  it('takes the newest tag of each minor line, with the files the source names', async () => {
    makeRepository(repository, ['v1.0.0', 'v1.0.1', 'v1.1.0', 'v2.0.0-rc.1', 'not-a-version']);
    const lines: string[] = [];
    const loaded = sources(entry);
    const state = await sync(loaded, { cacheDir, root: work, log: (line) => lines.push(line) });
    const guide = cached(state, 'guide');
    expect(guide.versions.map((v) => v.version)).toEqual(['1.1.0', '1.0.1']);
    expect(guide.releases.map((r) => r.version)).toEqual(['2.0.0-rc.1', '1.1.0', '1.0.1', '1.0.0']);
    expect(guide.versions[0]?.files).toEqual(['CHANGELOG.md', 'README.md', 'docs/setup.md']);
    expect(readFileSync(join(cacheDir, guide.versions[1]?.dir, 'README.md'), 'utf8')).toContain('Release v1.0.1.');
    expect(existsSync(join(cacheDir, guide.versions[0]?.dir, 'src.ts'))).toBe(false);
    expect(lines.join('\n')).toContain('2 versions (2 fetched, 0 already in the cache)');
    expect(isCurrent(readState(cacheDir), loaded)).toBe(true);
  });

  it('fetches only a new release on the next sync', async () => {
    git(repository, 'checkout', '--quiet', '-b', 'next');
    writeFileSync(join(repository, 'README.md'), '# Guide\n\nRelease v1.1.1.\n');
    git(repository, 'commit', '--quiet', '-am', 'v1.1.1');
    git(repository, 'tag', 'v1.1.1');
    const lines: string[] = [];
    const state = await sync(sources(entry), { cacheDir, root: work, log: (line) => lines.push(line) });
    expect(cached(state, 'guide').versions.map((v) => v.version)).toEqual(['1.1.1', '1.0.1']);
    expect(lines.join('\n')).toContain('2 versions (1 fetched, 1 already in the cache)');
  });

  it('keeps the cache when the repository cannot be reached, and says so', async () => {
    const moved = `${repository}-moved`;
    execFileSync('mv', [repository, moved]);
    try {
      const lines: string[] = [];
      const state = await sync(sources(entry), { cacheDir, root: work, log: (line) => lines.push(line) });
      expect(state.offline).toBe(true);
      expect(cached(state, 'guide').versions.map((v) => v.version)).toEqual(['1.1.1', '1.0.1']);
      expect(lines.join('\n')).toMatch(/guide: .* could not be reached .*; using the content cache of/);
      // With no cache either, the error names the source.
      await expect(sync(sources(entry), { cacheDir: join(work, 'empty-cache'), root: work })).rejects.toThrow(
        /^guide: could not fetch .*guide .*and the content cache has no copy\.$/,
      );
    } finally {
      execFileSync('mv', [moved, repository]);
    }
  });
});

describe('the npm kind, against a registry the test starts', () => {
  const cacheDir = join(work, 'cache-npm');
  const entry = `  - id: nav\n    kind: npm\n    package: '@tvco/nav-kit'\n    section: nav\n    title: Nav\n    versions: '>=3.2.0 <3.4.0'\n`;
  /** What the registry holds, oldest first: the range takes the newest of 3.2 and of 3.3. */
  const RELEASES = ['2.3.0', '3.1.0', '3.2.0', '3.2.1', '3.3.0', '3.4.0'];
  /** The sync's settings: the project's .npmrc only, not the user's. */
  const env = { ...process.env, HOME: work, npm_config_fetch_retries: '0' };
  let verdaccio: RunningVerdaccio;
  let npmrc = '';

  beforeAll(async () => {
    verdaccio = await startVerdaccio({ work: mkdtempSync(join(work, 'registry-')) });
    const token = await verdaccio.addUser('publisher', 'a-long-enough-password');
    for (const version of RELEASES)
      await verdaccio.publishTarball(
        {
          manifest: { name: '@tvco/nav-kit', version, license: 'MIT' },
          files: {
            'package.json': JSON.stringify({ name: '@tvco/nav-kit', version, license: 'MIT' }),
            'README.md': `# Nav kit\n\nRelease ${version}.\n`,
            'index.js': 'export {};\n',
          },
        },
        token,
      );
    npmrc = verdaccio.npmrc('@tvco', token);
    writeFileSync(join(work, '.npmrc'), npmrc);
  }, 120_000);

  afterAll(async () => {
    await verdaccio?.stop();
  });

  it('fetches the picked releases with README and package.json, and every release with its date', async () => {
    const lines: string[] = [];
    const state = await sync(sources(entry), { cacheDir, root: work, env, log: (line) => lines.push(line) });
    const nav = cached(state, 'nav');
    expect(nav.versions.map((v) => v.version)).toEqual(['3.3.0', '3.2.1']);
    expect(nav.versions[0]?.files).toContain('README.md');
    expect(nav.versions[0]?.files).not.toContain('index.js');
    expect(nav.versions[0]?.manifest).toMatchObject({ name: '@tvco/nav-kit', license: 'MIT' });
    expect(readFileSync(join(cacheDir, nav.versions[1]?.dir, 'README.md'), 'utf8')).toContain('Release 3.2.1.');
    // Every release, in the range or not, newest first.
    expect(nav.releases.map((r) => r.version)).toEqual([...RELEASES].reverse());
    expect(nav.releases.find((r) => r.version === '2.3.0')?.date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The next sync fetches the release list only (its time is in npm run bench).
    const again: string[] = [];
    await sync(sources(entry), { cacheDir, root: work, env, log: (line) => again.push(line) });
    expect(again.join('\n')).toContain('2 versions (0 fetched, 2 already in the cache)');
  }, 60_000);

  it('uses the cache when the registry is down, and names the source when there is no cache', async () => {
    // The project's .npmrc names a registry nothing answers on.
    writeFileSync(join(work, '.npmrc'), `@tvco:registry=http://127.0.0.1:${await getPort()}/\n`);
    try {
      const lines: string[] = [];
      const state = await sync(sources(entry), { cacheDir, root: work, env, log: (line) => lines.push(line) });
      expect(state.offline).toBe(true);
      expect(cached(state, 'nav').versions.map((v) => v.version)).toEqual(['3.3.0', '3.2.1']);
      expect(lines.join('\n')).toMatch(
        /nav: the registry could not be reached \(ECONNREFUSED\); using the content cache of/,
      );
      await expect(sync(sources(entry), { cacheDir: join(work, 'no-cache'), root: work, env })).rejects.toThrow(
        /nav: could not fetch @tvco\/nav-kit from the registry \(ECONNREFUSED\), and the content cache has no copy\./,
      );
    } finally {
      writeFileSync(join(work, '.npmrc'), npmrc);
      rmSync(join(work, 'no-cache'), { recursive: true, force: true });
    }
  }, 60_000);
});
