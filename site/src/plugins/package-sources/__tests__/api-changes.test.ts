// The API changes of a package the test makes and publishes to a private registry it starts
// (Verdaccio): between its two releases one function's signature changes and another is
// removed, and the reference's "API changes" page names exactly those two.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadSources, type SyncState, sync } from '@portal/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningVerdaccio, startVerdaccio } from '../../../../../tools/lib/verdaccio.mjs';
import { type CachedSource, sectionPages, type Source } from '../materialise';

const work = mkdtempSync(join(tmpdir(), 'portal-api-changes-'));
const project = join(work, 'project');
const siteDir = join(project, 'site');
mkdirSync(siteDir, { recursive: true });

let verdaccio: RunningVerdaccio;
let state: SyncState;
let source: Source;

/** A release's index.d.ts: what both releases declare alike, and what differs. */
const index = (...own: string[]) =>
  [
    '/** Moves the focus to the component with this key. */',
    ...own,
    'export interface FocusOptions {',
    '  /** Scroll the component into view. */',
    '  scroll?: boolean;',
    '}',
    "export declare const ROOT_KEY = 'root';",
    '',
  ].join('\n');

const declarations: Record<string, string> = {
  '1.0.0': index(
    'export declare function setFocus(key: string): void;',
    '/** Stops reacting to keys. */',
    'export declare function pause(): void;',
  ),
  '1.1.0': index('export declare function setFocus(key: string, options?: FocusOptions): Promise<void>;'),
};

/** The names listed under `### <heading>` in one release's section of the page. */
function listed(page: string, version: string, heading: string): string[] {
  const section = page.split(/^## /m).find((part) => part.startsWith(`Version ${version}\n`)) ?? '';
  const list = section.split(/^### /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';
  return [...list.matchAll(/^- \[?`([^`]+)`/gm)].map((match) => match[1] ?? '');
}

beforeAll(async () => {
  verdaccio = await startVerdaccio({ work });
  const token = await verdaccio.addUser('publisher', 'a-long-enough-password');
  for (const [version, types] of Object.entries(declarations))
    verdaccio.publishTyped(
      {
        name: '@tvco/focus-kit',
        version,
        description: 'Focus kit for the test registry',
        readme: `# Focus kit\n\nCall \`setFocus\` once the app has drawn (${version}).\n`,
        declarations: types,
      },
      token,
    );
  writeFileSync(join(project, '.npmrc'), verdaccio.npmrc('@tvco', token));
  const file = join(siteDir, 'sources.yaml');
  writeFileSync(
    file,
    "sources:\n  - id: kit\n    kind: npm\n    package: '@tvco/focus-kit'\n    section: kit\n    title: Focus kit\n    versions: '>=1.0.0'\n    pick: all\n",
  );
  const loaded = loadSources(file, { siteDir });
  source = loaded.sources[0] as Source;
  state = await sync(loaded, { cacheDir: join(work, 'cache'), root: project, env: { ...process.env, HOME: work } });
}, 180_000);

afterAll(async () => {
  await verdaccio?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('the API changes of a package published to a private registry', () => {
  it('names exactly the removed and the changed function, and adds nothing', () => {
    const { files } = sectionPages(source, state.sources.kit as CachedSource, {
      cacheDir: join(work, 'cache'),
      siteDir,
    });
    const page = files.get('api/api-changes.md') as string;
    expect(listed(page, '1.1.0', 'Removed')).toEqual(['pause']);
    expect(listed(page, '1.1.0', 'Changed')).toEqual(['setFocus']);
    expect(listed(page, '1.1.0', 'Added')).toEqual([]);
    // The changed signature, before and after.
    expect(page).toContain('- function setFocus(key: string): void');
    expect(page).toContain('+ function setFocus(key: string, options?: FocusOptions): Promise<void>');
    // Each release's reference has the pages of what it exports, and the release history says what changed.
    expect(files.has('api/pause.md')).toBe(false);
    expect(files.has('1.0.0/api/pause.md')).toBe(true);
    expect(files.get('api/setFocus.md')).toMatch(/Moves the focus to the component with this key/);
    expect(files.get('CHANGELOG.md')).toContain('API changes against 1.0.0: removed `pause`; changed `setFocus`');
  });
});
