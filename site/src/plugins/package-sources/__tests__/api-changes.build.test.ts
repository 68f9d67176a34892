// The API changes of a package the test makes and publishes to a private registry it starts
// (Verdaccio): between its last two releases one function's signature changes and another is
// removed, and the reference's "API changes" page names exactly those two; the release
// history and each release's README link to the reference of their own release. A backport
// (0.9.1, published last) checks the release facts: each date is the registry's `time`, each
// release is compared with the previous one in version order, and 1.1.0, a minor release that
// removes a function, is marked as breaking.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadSources, type SyncState, sync } from '@portal/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningVerdaccio, startVerdaccio } from '../../../../../tools/lib/verdaccio.mjs';
import { type CachedSource, sectionPages, type Source } from '../materialise';
import { changesAnchor } from '../reference';

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
  '0.9.0': index('export declare function setFocus(key: string): void;'),
  '1.0.0': index(
    'export declare function setFocus(key: string): void;',
    '/** Stops reacting to keys. */',
    'export declare function pause(): void;',
  ),
  '1.1.0': index('export declare function setFocus(key: string, options?: FocusOptions): Promise<void>;'),
  // A backport of 0.9, published after 1.1.0.
  '0.9.1': index('export declare function setFocus(key: string): void;'),
};

/** The registry's publication time of each version (its packument's `time`). */
let registryTime: Record<string, string>;

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
        ...(version === '0.9.1' ? { tag: 'v0.9-backports' } : {}),
      },
      token,
    );
  writeFileSync(join(project, '.npmrc'), verdaccio.npmrc('@tvco', token));
  const packument = await fetch(`${verdaccio.registry}@tvco%2ffocus-kit`, {
    headers: { authorization: `Bearer ${token}` },
  });
  registryTime = ((await packument.json()) as { time: Record<string, string> }).time;
  const file = join(siteDir, 'sources.yaml');
  writeFileSync(
    file,
    "sources:\n  - id: kit\n    kind: npm\n    package: '@tvco/focus-kit'\n    section: kit\n    title: Focus kit\n    versions: '>=0.9.0'\n    pick: all\n",
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
    expect(files.get('CHANGELOG.md')).toContain(
      'API changes against 1.0.0, the previous release in version order: removed `pause`; changed `setFocus`',
    );
  });

  it('dates every release as the registry does and compares it with the previous one in version order', () => {
    const { files } = sectionPages(source, state.sources.kit as CachedSource, {
      cacheDir: join(work, 'cache'),
      siteDir,
    });
    const history = files.get('CHANGELOG.md') as string;
    const headings = [...history.matchAll(/^## (\S+) - (\S+)$/gm)].map(([, version, day]) => ({ version, day }));
    // Version order, whatever the order of publication; each day the registry's.
    expect(headings.map((heading) => heading.version)).toEqual(['1.1.0', '1.0.0', '0.9.1', '0.9.0']);
    for (const { version, day } of headings) expect(day).toBe(registryTime[version as string]?.slice(0, 10));
    const minute = (version: string) => `at ${registryTime[version]?.slice(11, 16)} UTC`;
    expect(history).toContain(`${minute('1.1.0')}. [Documentation`);
    // The backport came last: 1.1.0 and 1.0.0 say so, 0.9.1 does not.
    expect(history).toMatch(
      new RegExp(`## 1\\.0\\.0 [^\\n]*\\n\\nPublished on [^\\n]*, before 0\\.9\\.1, which the registry dates later\\.`),
    );
    expect(history).not.toMatch(/## 0\.9\.1 [^\n]*\n\nPublished on [^\n]*, before/);

    const page = files.get('api/api-changes.md') as string;
    const base = (version: string) =>
      /Compared with (\S+), the previous release in version order\./.exec(
        page.split(/^## /m).find((part) => part.startsWith(`Version ${version}\n`)) ?? '',
      )?.[1];
    expect(['1.1.0', '1.0.0', '0.9.1'].map(base)).toEqual(['1.0.0', '0.9.1', '0.9.0']);
    // 1.1.0 removes `pause` in a minor release; 1.0.0 (a major) and 0.9.1 (no removal) are not breaking.
    const breaking = [...page.matchAll(/Breaking in a (\w+) release: (\S+) /g)].map(
      ([, kind, version]) => `${version} ${kind}`,
    );
    expect(breaking).toEqual(['1.1.0 minor']);
    expect(history).toMatch(/## 1\.1\.0 [\s\S]*?\*\*Breaking in a minor release\.\*\*[\s\S]*## 1\.0\.0/);
  });

  it('links the release history to a changes page that exists when the newest release has no reference', () => {
    // A release published without declarations (or whose reference could not be made).
    const cached = state.sources.kit as CachedSource;
    const withoutNewest = { ...cached, api: (cached.api ?? []).filter((entry) => entry.version !== '1.1.0') };
    const { files } = sectionPages(source, withoutNewest, { cacheDir: join(work, 'cache'), siteDir });
    expect(files.has('api/api-changes.md')).toBe(false);
    const history = files.get('CHANGELOG.md') as string;
    const targets = [...history.matchAll(/\]\(([^)#]*api-changes\.md)#([\w-]+)\)/g)];
    expect(targets.map(([, page, anchor]) => `${page}#${anchor}`)).toEqual([
      `1.0.0/api/api-changes.md#${changesAnchor('1.0.0')}`,
    ]);
    for (const [, page] of targets) expect(files.has(page as string)).toBe(true);
  });

  it('links the README’s code to the reference of its own release', () => {
    const { files } = sectionPages(source, state.sources.kit as CachedSource, {
      cacheDir: join(work, 'cache'),
      siteDir,
    });
    const readme = files.get('1.0.0/README.md') as string;
    expect(readme).toContain('[`setFocus`](api/setFocus.md)');
    expect(files.has('1.0.0/api/setFocus.md')).toBe(true);
  });
});
