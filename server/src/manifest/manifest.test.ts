import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { makeTestSite } from '../test/test-site.js';
import { loadManifest, MANIFEST_FILE, type Manifest } from './manifest.js';

describe('loading the manifest at start', () => {
  it('loads a prepared build', async () => {
    const dir = await makeTestSite();
    const manifest = await loadManifest(dir);
    expect(manifest.entries['/docs/layout-engine']).toMatchObject({
      access: 'private',
      units: ['layout'],
      kind: 'page',
    });
    expect(manifest.entries['/docs/frontend-guidelines/gitflow']).toMatchObject({
      access: 'private',
      units: ['internal'],
    });
    expect(manifest.entries['/docs']).toMatchObject({ access: 'public', units: [], kind: 'page' });
    expect(manifest.entries['/404.html']).toMatchObject({ access: 'public', kind: 'file' });
  });

  const broken = async (change: (manifest: Manifest, dir: string) => Promise<unknown> | unknown): Promise<string> => {
    const dir = await makeTestSite();
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
    await change(manifest, dir);
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest));
    return dir;
  };

  it('refuses a missing manifest', async () => {
    const dir = await makeTestSite();
    await rm(join(dir, MANIFEST_FILE));
    await expect(loadManifest(dir)).rejects.toThrow(/portal-manifest.json is not usable: it does not exist/);
  });

  it('refuses a corrupt manifest', async () => {
    const dir = await makeTestSite();
    await writeFile(join(dir, MANIFEST_FILE), '{"version":1,"entries":{');
    await expect(loadManifest(dir)).rejects.toThrow(/it is not valid JSON/);
  });

  it.each([
    ['another version', (m: Manifest) => Object.assign(m, { version: 1 }), /its version is 1, not 3/],
    [
      'an entry escaping the build',
      (m: Manifest) => Object.assign(m.entries['/docs'] ?? {}, { file: '../secret' }),
      /entry for \/docs is malformed/,
    ],
    [
      'an unknown access',
      (m: Manifest) => Object.assign(m.entries['/docs'] ?? {}, { access: 'maybe' }),
      /entry for \/docs is malformed/,
    ],
    [
      'a private file that nobody may read',
      (m: Manifest) => Object.assign(m.entries['/docs/layout-engine'] ?? {}, { units: [] }),
      /entry for \/docs\/layout-engine is malformed/,
    ],
    [
      'a public file with units',
      (m: Manifest) => Object.assign(m.entries['/docs'] ?? {}, { units: ['internal'] }),
      /entry for \/docs is malformed/,
    ],
    [
      'a unit the policy does not define',
      (m: Manifest) => Object.assign(m.entries['/docs/layout-engine'] ?? {}, { units: ['contractors'] }),
      /names the unit "contractors", which the access policy does not define/,
    ],
    [
      'a private not-found page',
      (m: Manifest) => Object.assign(m.entries['/404.html'] ?? {}, { access: 'private', units: ['internal'] }),
      /no public not-found page/,
    ],
    [
      'bad script hashes',
      (m: Manifest) => Object.assign(m, { inlineScriptHashes: ["'unsafe-inline'"] }),
      /inline script hashes/,
    ],
    [
      'a file of another build',
      (m: Manifest) => Object.assign(m.entries['/docs'] ?? {}, { size: 1 }),
      /differs from the build/,
    ],
  ])('refuses %s', async (_name, change, message) => {
    await expect(loadManifest(await broken(change))).rejects.toThrow(message);
  });
});
