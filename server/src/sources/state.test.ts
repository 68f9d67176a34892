import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { readCacheState, sourceStates } from './state.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function cacheWith(state: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-state-'));
  dirs.push(dir);
  await writeFile(join(dir, 'state.json'), JSON.stringify(state));
  return dir;
}

describe("the administration's view of the content cache", () => {
  it('names each refused release and why, what was left out of the published ones, and a failed sync', async () => {
    const dir = await cacheWith({
      syncedAt: '2026-12-01T10:00:00.000Z',
      sources: {
        nav: {
          kind: 'npm',
          package: '@acme/nav',
          fetchedAt: '2026-12-01T10:00:00.000Z',
          error: 'nav: the registry answered 500',
          releases: [{ version: '3.4.0' }, { version: '3.3.0' }],
          versions: [{ version: '3.3.0', notes: ['"docs/evil name.md" is left out: its name holds a space.'] }],
          refused: [
            {
              version: '3.4.0',
              reason: 'its files come to 8.8 MiB, more than the 8.0 MiB a release may',
              marker: 'x',
              at: '2026-12-01T10:00:00.000Z',
            },
          ],
          api: [
            { version: '3.4.0', error: 'not published, so not listed' },
            { version: '3.3.0', refused: [{ name: 'a/../b', reason: 'its name is not a JavaScript identifier' }] },
          ],
        },
      },
    });
    const [nav] = sourceStates(await readCacheState(dir));
    expect(nav?.refused).toEqual([
      {
        version: '3.4.0',
        reason: 'its files come to 8.8 MiB, more than the 8.0 MiB a release may',
        at: '2026-12-01T10:00:00.000Z',
      },
    ]);
    expect(nav?.notes).toEqual([
      { version: '3.3.0', note: '"docs/evil name.md" is left out: its name holds a space.' },
      { version: '3.3.0', note: 'The export "a/../b" is not documented: its name is not a JavaScript identifier.' },
    ]);
    expect(nav?.error).toBe('nav: the registry answered 500');
  });

  it('answers empty lists for a source nothing was refused of', async () => {
    const dir = await cacheWith({ syncedAt: null, sources: { nav: { kind: 'git', repository: 'x', versions: [] } } });
    expect(sourceStates(await readCacheState(dir))[0]).toMatchObject({ refused: [], notes: [], error: null });
  });
});
