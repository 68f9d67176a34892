// What a sync after a publish would change in a copy of the content cache (.cache/sources),
// for the benchmark and the tests: a release made without a registry.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Adds a release to a copy of the content cache, as a sync after a publish would: the newest
 * version's files and API reference again under the next minor version, with `note` and the
 * version as a line of its own in its README, at the head of the source's versions,
 * releases and references. Returns the version and a function that takes it out.
 */
export function addRelease(cacheDir, sourceId, note) {
  const file = join(cacheDir, 'state.json');
  const before = readFileSync(file, 'utf8');
  const state = JSON.parse(before);
  const source = state.sources[sourceId];
  if (!source?.versions?.length) throw new Error(`The content cache ${cacheDir} holds no release of ${sourceId}`);
  const newest = source.versions[0];
  const [major, minor] = newest.version.split('.').map(Number);
  const version = `${major}.${minor + 1}.0`;
  const dir = newest.dir.replace(/[^/]+$/, version);
  cpSync(join(cacheDir, newest.dir), join(cacheDir, dir), { recursive: true });
  const readme = join(cacheDir, dir, 'README.md');
  writeFileSync(readme, `${readFileSync(readme, 'utf8')}\n\n${note} as ${version}.\n`);
  const date = new Date().toISOString();
  source.versions.unshift({ ...newest, version, dir, date });
  source.releases.unshift({ version, date });
  // Its API reference as the sync would make it: the newest's declarations, unchanged.
  if (source.api?.[0]) source.api.unshift({ ...source.api[0], version });
  writeFileSync(file, JSON.stringify(state, null, 2));
  return {
    version,
    remove: () => {
      writeFileSync(file, before);
      rmSync(join(cacheDir, dir), { recursive: true, force: true });
    },
  };
}
