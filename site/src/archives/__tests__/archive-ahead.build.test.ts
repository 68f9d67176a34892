// What the gate runs after it has served a release's rebuild (SOURCES_ARCHIVE_COMMAND, by
// default `node scripts/rebuild.mjs --archive`), run for real: Docusaurus's
// `archive-releases` in a copy of the site with a content cache of its own, synced from a
// registry the test starts (Verdaccio) that holds two releases of the open package. It
// archives the newest release ahead; once a newer release is in the cache, the next run
// finds that archive (the build after the release builds no archive of older releases) and
// archives the new newest ahead.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadSources, sync } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { addRelease } from '../../../../tools/lib/content-cache.mjs';
import { copySiteSources, docusaurus } from '../../../../tools/lib/site-copy.mjs';
import { type RunningVerdaccio, startVerdaccio } from '../../../../tools/lib/verdaccio.mjs';
import { archivesDir, readArchives } from '../archives';

const { root } = syncPaths();
// Inside the repository (the copy resolves its packages from the root's node_modules), in
// the ignored content-cache folder.
const work = join(root, '.cache', `archive-ahead-test-${process.pid}`);
const siteDir = join(work, 'site');
const cacheDir = join(work, 'cache');
const SOURCE = 'norigin-spatial-navigation';
const NAME = '@noriginmedia/norigin-spatial-navigation';
/** Two releases, so the cache holds an older one and a newest one. */
const RELEASES = ['3.2.1', '3.3.0'];

let verdaccio: RunningVerdaccio;

/** `docusaurus archive-releases` in the copy, over its own cache: what it printed. */
const archiveReleases = () => docusaurus(siteDir, 'archive-releases', { cacheDir });

/** Each kept archive's releases, by version, with its folder and the time its build took (its record's). */
const archived = () =>
  readArchives(archivesDir(cacheDir))
    .map(({ dir, record }) => ({
      dir,
      seconds: record.seconds,
      versions: record.releases.map((release) => release.version).join(', '),
    }))
    .sort((a, b) => a.versions.localeCompare(b.versions));

beforeAll(async () => {
  mkdirSync(work, { recursive: true });
  verdaccio = await startVerdaccio({ work });
  const token = await verdaccio.addUser('publisher', 'a-long-enough-password');
  for (const version of RELEASES) {
    const manifest = {
      name: NAME,
      version,
      description: 'Spatial navigation for TV apps',
      license: 'MIT',
      types: 'dist/index.d.ts',
    };
    await verdaccio.publishTarball(
      {
        manifest,
        files: {
          'package.json': JSON.stringify(manifest),
          'README.md': `# Spatial Navigation\n\nRelease ${version}: call \`useFocusable\` in each component that takes focus.\n`,
          'CHANGELOG.md': `# Changelog\n\n## ${version}\n\n- Released for the archive test.\n`,
          LICENSE: 'MIT License\n',
          'dist/index.d.ts':
            '/** Makes the calling component focusable. */\nexport declare function useFocusable(): void;\n',
          'dist/index.js': 'export {};\n',
        },
      },
      token,
    );
  }
  writeFileSync(join(work, '.npmrc'), verdaccio.npmrc('@noriginmedia', token));
  copySiteSources(siteDir, { gateFiles: true });
  const env = { ...process.env, HOME: work, npm_config_fetch_retries: '0' };
  await sync(loadSources(join(siteDir, 'sources.yaml'), { siteDir }), { cacheDir, root: work, env });
}, 240_000);

afterAll(async () => {
  await verdaccio?.stop();
  rmSync(work, { recursive: true, force: true });
});
describe('the archive command the gate runs after a release is served', () => {
  let newest = { dir: '', seconds: 0, versions: '' };

  it('archives the older release, then the newest ahead of the release that will replace it', async () => {
    const first = await archiveReleases();
    expect(first).toContain('Building the archive of 1 older releases once');
    expect(first).toContain('Building the archive of the newest release norigin-spatial-navigation 3.3.0 once');
    const kept = archived();
    expect(kept.map((archive) => archive.versions)).toEqual(['3.2.1', '3.3.0']);
    newest = kept[1] as typeof newest;
  }, 600_000);

  it('has that archive found after the next release, and archives the new newest ahead', async () => {
    expect(newest.dir).not.toBe('');
    const { version } = addRelease(cacheDir, SOURCE, 'Released for the archive test');
    expect(version).toBe('3.4.0');
    const next = await archiveReleases();
    // The build after a release builds the older releases' archives it lacks first: none here.
    expect(next).not.toContain('older releases once');
    expect(next).toContain('Building the archive of the newest release norigin-spatial-navigation 3.4.0 once');
    const kept = archived();
    expect(kept.map((archive) => archive.versions)).toEqual(['3.2.1', '3.3.0', '3.4.0']);
    // The very archive made ahead, not one made again (a build writes a new record, with its own time).
    expect(kept[1]).toEqual(newest);
  }, 600_000);
});
