// The rebuild's decision to build, or not, after it synced the sources a release hook named:
// a real sync of a git source the test makes (tags as releases; no network) into a content
// cache of its own, compared with the record a finished build leaves.
import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { readState } from '@portal/sync';
import { describe, expect, it } from 'vitest';

import { git, makeRepository } from '../tools/lib/git-repository.mjs';
import { recordBuiltSources } from './build-if-stale.mjs';
import { buildOrRefuse, syncForRebuild } from './rebuild.mjs';

const work = mkdtempSync(join(tmpdir(), 'portal-rebuild-'));
const siteDir = join(work, 'site');
mkdirSync(siteDir);
const repository = join(work, 'guide');
const paths = { root: work, siteDir, sourcesFile: join(siteDir, 'sources.yaml'), cacheDir: join(work, 'cache') };
const record = join(work, 'portal-build.sources.json');
writeFileSync(
  paths.sourcesFile,
  `sources:\n  - id: guide\n    kind: git\n    repository: ${repository}\n    section: guide\n    title: Guide\n    versions: '>=1.0.0'\n`,
);
makeRepository(repository, ['v1.0.0', 'v1.1.0']);

const quiet = () => undefined;
/** The sources that changed since the recorded build, after a sync of `guide`. */
const changed = (built = true) => syncForRebuild({ only: ['guide'], paths, record, built, log: quiet });
/** What a finished build leaves: the record of the sources it was made from. */
const build = () => recordBuiltSources({ paths, file: record });

describe('the rebuild after a release hook', () => {
  it('builds when the served build has no record of what it was made from', async () => {
    expect(await changed()).toEqual(['guide']);
  });

  it('builds nothing when the sync brings nothing the served build was not made from', async () => {
    build();
    const fetched = readState(paths.cacheDir)?.sources.guide?.fetchedAt;
    expect(await changed()).toEqual([]);
    // The sync did run: only its time changed, which is not content.
    expect(readState(paths.cacheDir)?.sources.guide?.fetchedAt).not.toBe(fetched);
  });

  it('builds when a release is tagged, and not again once that build is made', async () => {
    writeFileSync(join(repository, 'README.md'), '# Guide\n\nRelease v1.1.1.\n');
    git(repository, 'commit', '--quiet', '-am', 'v1.1.1');
    git(repository, 'tag', 'v1.1.1');
    expect(await changed()).toEqual(['guide']);
    build();
    expect(await changed()).toEqual([]);
  });

  it('builds when a release tag is moved to another commit, its version the same', async () => {
    writeFileSync(join(repository, 'README.md'), '# Guide\n\nRelease v1.1.1, fixed.\n');
    git(repository, 'commit', '--quiet', '-am', 'v1.1.1 again');
    git(repository, 'tag', '--force', 'v1.1.1');
    const versions = readState(paths.cacheDir)?.sources.guide?.versions?.map((v) => v.version);
    expect(await changed()).toEqual(['guide']);
    expect(readState(paths.cacheDir)?.sources.guide?.versions?.map((v) => v.version)).toEqual(versions);
  });

  it('builds again after a sync whose build failed, though that sync already brought the release into the cache', async () => {
    // The previous test's build never finished (no record): this sync brings nothing new.
    expect(await changed()).toEqual(['guide']);
    build();
    expect(await changed()).toEqual([]);
  });

  it('fails, naming the source, when its repository cannot be reached, and builds once it can again', async () => {
    const away = `${repository}.away`;
    renameSync(repository, away);
    try {
      await expect(changed()).rejects.toThrow(
        /^guide: the registry or repository could not be reached .*nothing was built/,
      );
    } finally {
      renameSync(away, repository);
    }
    expect(await changed()).toEqual([]);
  });

  it('builds when there is no served build, whatever the record says', async () => {
    expect(await changed(false)).toEqual(['guide']);
  });
});

describe('a rebuild whose build fails with a new release', () => {
  const versions = () => readState(paths.cacheDir)?.sources.guide?.versions?.map((v) => v.version);
  const refused = () => readState(paths.cacheDir)?.sources.guide?.refused?.map((r) => r.version) ?? [];
  /** A build that fails while the cache publishes `version`, as a release that breaks the site would. */
  const failsWith = (version: string) => () => {
    if (versions()?.includes(version)) throw new Error(`The site build failed (exit code 1); see the messages above.`);
  };

  it('builds again without it, the releases before it published, and names it as not published', async () => {
    build();
    git(repository, 'checkout', '--quiet', '-b', 'next');
    writeFileSync(join(repository, 'README.md'), '# Guide\n\nRelease v1.2.0.\n');
    git(repository, 'commit', '--quiet', '-am', 'v1.2.0');
    git(repository, 'tag', 'v1.2.0');
    const changedSources = await changed();
    expect(versions()).toEqual(['1.2.0', '1.1.1', '1.0.0']);
    const lines: string[] = [];
    const refusals = await buildOrRefuse({
      changed: changedSources,
      build: failsWith('1.2.0'),
      paths,
      record,
      log: (line) => lines.push(line),
    });
    expect(refusals).toEqual([{ source: 'guide', version: '1.2.0' }]);
    expect(versions()).toEqual(['1.1.1', '1.0.0']);
    expect(readState(paths.cacheDir)?.sources.guide?.refused?.[0]?.reason).toMatch(/the site build failed with it/);
    expect(lines.join('\n')).toContain('building again without the new releases guide 1.2.0');
    // The next hook's sync keeps it out: the same commit is not tried again.
    await changed();
    expect(versions()).toEqual(['1.1.1', '1.0.0']);
  });

  it('takes the refusals back when the build fails without the new releases too', async () => {
    build();
    git(repository, 'tag', 'v1.3.0');
    const changedSources = await changed();
    const alwaysFails = () => {
      throw new Error('The portal itself is broken.');
    };
    await expect(
      buildOrRefuse({ changed: changedSources, build: alwaysFails, paths, record, log: quiet }),
    ).rejects.toThrow('The portal itself is broken.');
    expect(refused()).toEqual(['1.2.0']);
    expect(versions()).toEqual(['1.3.0', '1.1.1', '1.0.0']);
  });

  it('fails as it is when the build fails with nothing new in it', async () => {
    build();
    await expect(
      buildOrRefuse({ changed: ['guide'], build: failsWith('1.3.0'), paths, record, log: quiet }),
    ).rejects.toThrow('The site build failed');
    expect(refused()).toEqual(['1.2.0']);
  });
});
