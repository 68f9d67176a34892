// The npm kind against a private registry: a real Verdaccio on a free port that lets only
// signed-in users read its packages, a package the test publishes in three versions with
// npm itself, and a token in the project's .npmrc, as a company's own registry would be used.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningVerdaccio, startVerdaccio } from '../../tools/lib/verdaccio.mjs';
import { loadSources, sync } from './index.js';

const work = mkdtempSync(join(tmpdir(), 'portal-registry-'));
const project = join(work, 'project');
const siteDir = join(project, 'site');
mkdirSync(siteDir, { recursive: true });

let verdaccio: RunningVerdaccio;
let registry = '';
let token = '';

/** Publishes one version of @tvco/player-kit with npm, its README naming the version. */
function publish(version: string): void {
  verdaccio.publish(
    {
      'package.json': JSON.stringify({
        name: '@tvco/player-kit',
        version,
        description: 'Player kit for the test registry',
        license: 'UNLICENSED',
        peerDependencies: { react: '>=18' },
        files: ['README.md', 'CHANGELOG.md', 'docs/', 'index.js'],
      }),
      'README.md': `# Player kit\n\nThe README of ${version}.\n`,
      'CHANGELOG.md': `# Changes\n\n## ${version}\n`,
      'index.js': `export const version = '${version}';\n`,
      'docs/setup.md': `# Setup\n\nSetting up ${version}.\n`,
    },
    token,
  );
}

function sources() {
  const file = join(siteDir, 'sources.yaml');
  writeFileSync(
    file,
    "sources:\n  - id: kit\n    kind: npm\n    package: '@tvco/player-kit'\n    section: kit\n    title: Player kit\n    versions: '>=1.0.0'\n    pick: all\n",
  );
  return loadSources(file, { siteDir });
}

beforeAll(async () => {
  verdaccio = await startVerdaccio({ work });
  registry = verdaccio.registry;
  token = await verdaccio.addUser('publisher', 'a-long-enough-password');
  for (const version of ['1.0.0', '1.1.0', '2.0.0']) publish(version);
}, 120_000);

afterAll(async () => {
  await verdaccio?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('the npm kind, against a private registry the test starts', () => {
  it('refuses to read the package without a token, naming the source', async () => {
    // The scope points at the registry, but no token: the registry answers 401, and the sync says whose fetch failed.
    writeFileSync(join(project, '.npmrc'), `@tvco:registry=${registry}\n`);
    const env = { ...process.env, HOME: work, npm_config_fetch_retries: '0' };
    await expect(sync(sources(), { cacheDir: join(work, 'cache-denied'), root: project, env })).rejects.toThrow(
      /kit: could not fetch @tvco\/player-kit from the registry \(E401\), and the content cache has no copy\./,
    );
  }, 60_000);

  it('fetches every published version with the token from the project .npmrc', async () => {
    // As a company writes it: the token comes from the environment, not the file.
    const host = registry.replace(/^http:/, '');
    writeFileSync(join(project, '.npmrc'), `@tvco:registry=${registry}\n${host}:_authToken=\${TVCO_NPM_TOKEN}\n`);
    const env = { ...process.env, HOME: work, TVCO_NPM_TOKEN: token };
    const cacheDir = join(work, 'cache');
    const lines: string[] = [];
    const state = await sync(sources(), { cacheDir, root: project, env, log: (line) => lines.push(line) });
    const kit = state.sources.kit;
    expect(kit?.versions?.map((v) => v.version)).toEqual(['2.0.0', '1.1.0', '1.0.0']);
    expect(kit?.releases?.map((r) => r.version).sort()).toEqual(['1.0.0', '1.1.0', '2.0.0']);
    for (const release of kit?.releases ?? []) expect(release.date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const newest = kit?.versions?.[0];
    expect(newest?.files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/setup.md']));
    expect(newest?.files).not.toContain('index.js');
    expect(newest?.manifest).toMatchObject({ license: 'UNLICENSED', peerDependencies: { react: '>=18' } });
    const readme = (version: string) =>
      readFileSync(join(cacheDir, 'npm', '@tvco+player-kit', version, 'README.md'), 'utf8');
    expect(readme('1.1.0')).toContain('The README of 1.1.0.');
    expect(readme('2.0.0')).toContain('The README of 2.0.0.');

    // A fourth release: the next sync fetches it alone.
    publish('2.1.0');
    const again: string[] = [];
    const next = await sync(sources(), { cacheDir, root: project, env, log: (line) => again.push(line) });
    expect(next.sources.kit?.versions?.map((v) => v.version)).toEqual(['2.1.0', '2.0.0', '1.1.0', '1.0.0']);
    expect(again.join('\n')).toContain('4 versions (1 fetched, 3 already in the cache)');
  }, 120_000);
});
