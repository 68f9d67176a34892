// The API reference of the real package, fetched from the public registry at three releases,
// and at every release the portal's own sources publish: the pages the build writes name
// exactly what each release's index.d.ts exports (as the TypeScript compiler itself reads it,
// with the dependencies it re-exports), and the API changes from 2.3.0 to 3.3.0 name every
// added symbol and nothing else. The only tests that reach the public registry (`npm run
// test:public-registry`); how the reference is made is tested on packages published to a
// registry of the tests' own (api-changes.build.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadSources, type SyncState, sync } from '@portal/sync';
import semver from 'semver';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

import { type CachedSource, sectionPages, type Source, versionedPages } from '../materialise';
import { changesAnchor } from '../reference';

const work = mkdtempSync(join(tmpdir(), 'portal-reference-'));
const siteDir = join(work, 'site');
const cacheDir = join(work, 'cache');
mkdirSync(siteDir, { recursive: true });
const VERSIONS = ['3.3.0', '2.3.0', '1.3.3'];

let state: SyncState;
let source: Source;

/** What a declarations entry exports, as the TypeScript compiler resolves it (re-exports followed). */
function exportedNames(indexFile: string): string[] {
  const program = ts.createProgram([indexFile], {
    skipLibCheck: true,
    noEmit: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    moduleResolution: ts.ModuleResolutionKind.Node10,
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(indexFile);
  const module = file && checker.getSymbolAtLocation(file);
  if (!module) throw new Error(`${indexFile} is no module`);
  return checker
    .getExportsOfModule(module)
    .map((symbol) => symbol.name)
    .sort();
}

/**
 * The symbol names of one release's reference pages (each page's title) against the names its
 * index.d.ts exports: the two lists the tests compare.
 */
function pagesAndExports(
  files: Map<string, string | { copyFrom: string }>,
  cache: string,
  version: string,
  folder: string,
): { pages: string[]; exported: string[] } {
  const pages = [...files.keys()]
    .filter((path) => path.startsWith(`${folder}api/`) && !/\/(index|api-changes)\.md$/.test(path))
    .filter((path) => path.slice(`${folder}api/`.length).indexOf('/') === -1)
    .map((path) => {
      const text = files.get(path) as string;
      return /^title: (.+)$/m.exec(text)?.[1]?.replace(/^"|"$/g, '') ?? path;
    })
    .sort();
  const index = join(cache, 'types', '@noriginmedia+norigin-spatial-navigation', version, 'declarations');
  return { pages, exported: exportedNames(join(index, 'package', 'dist', 'index.d.ts')) };
}

/**
 * The TypeScript errors of code blocks (TSX, strict) against a release's declarations, with
 * React's types from the repository: an empty list when every block compiles.
 */
function typeErrors(blocks: readonly string[], declarations: string, scratch: string): string[] {
  mkdirSync(scratch, { recursive: true });
  const files = blocks.map((code, index) => {
    const file = join(scratch, `example-${index + 1}.tsx`);
    writeFileSync(file, code);
    return file;
  });
  const react = join(import.meta.dirname, '..', '..', '..', '..', '..', 'node_modules', '@types', 'react');
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    jsx: ts.JsxEmit.ReactJSX,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    paths: {
      '@noriginmedia/norigin-spatial-navigation': [join(declarations, 'package', 'dist', 'index.d.ts')],
      react: [join(react, 'index.d.ts')],
      'react/jsx-runtime': [join(react, 'jsx-runtime.d.ts')],
    },
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where =
      diagnostic.file && diagnostic.start !== undefined
        ? `${diagnostic.file.fileName.slice(scratch.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: `
        : '';
    return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

/** The names of a Markdown list under `### <heading>` in one release's section of the API changes page. */
function listed(page: string, version: string, heading: string): string[] {
  const section = page.split(/^## /m).find((part) => part.startsWith(`Version ${version}\n`)) ?? '';
  const list = section.split(/^### /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';
  return [...list.matchAll(/^- \[?`([^`]+)`/gm)].map((match) => match[1] ?? '').sort();
}

beforeAll(async () => {
  const file = join(siteDir, 'sources.yaml');
  writeFileSync(
    file,
    `sources:\n  - id: nav\n    kind: npm\n    package: '@noriginmedia/norigin-spatial-navigation'\n    section: Nav\n    title: Nav\n    versions: '${VERSIONS.join(' || ')}'\n    pick: all\n`,
  );
  const loaded = loadSources(file, { siteDir });
  source = loaded.sources[0] as Source;
  state = await sync(loaded, { cacheDir, root: work });
}, 240_000);

describe('the API reference of @noriginmedia/norigin-spatial-navigation at three releases', () => {
  it('fetches each release’s declarations with the dependencies 3.x re-exports, at the versions it pins', () => {
    const api = state.sources.nav?.api ?? [];
    expect(api.map((entry) => entry.version)).toEqual(VERSIONS);
    expect(api.every((entry) => entry.dir && !entry.error)).toBe(true);
    expect(Object.keys(api[0]?.dependencies ?? {}).sort()).toEqual([
      '@noriginmedia/norigin-spatial-navigation-core',
      '@noriginmedia/norigin-spatial-navigation-react',
    ]);
  });

  it.each(VERSIONS)('gives every name %s’s index.d.ts exports a page, and no page to anything else', (version) => {
    const { files } = sectionPages(source, state.sources.nav as CachedSource, { cacheDir, siteDir });
    const { pages, exported } = pagesAndExports(files, cacheDir, version, version === VERSIONS[0] ? '' : `${version}/`);
    expect(exported).toContain('useFocusable');
    expect(exported).toEqual(expect.arrayContaining(['init', 'FocusContext']));
    expect(pages).toEqual(exported);
  });

  it('lists, from 2.3.0 to 3.3.0, every symbol 3.3.0 added and none that it did not', () => {
    const { files } = sectionPages(source, state.sources.nav as CachedSource, { cacheDir, siteDir });
    const page = files.get('api/api-changes.md') as string;
    const declarations = (version: string) =>
      join(cacheDir, 'types', '@noriginmedia+norigin-spatial-navigation', version, 'declarations', 'package');
    const before = new Set(exportedNames(join(declarations('2.3.0'), 'dist', 'index.d.ts')));
    const after = exportedNames(join(declarations('3.3.0'), 'dist', 'index.d.ts'));
    const added = after.filter((name) => !before.has(name));
    expect(added.length).toBeGreaterThan(0);
    expect(listed(page, '3.3.0', 'Added')).toEqual(added.sort());
    expect(listed(page, '3.3.0', 'Removed')).toEqual([...before].filter((name) => !after.includes(name)).sort());
    for (const name of listed(page, '3.3.0', 'Changed')) expect(before.has(name) && after.includes(name)).toBe(true);
    // The release history says it too, and links to that section of the changes page.
    const history = files.get('CHANGELOG.md') as string;
    expect(history).toContain(`api/api-changes.md#${changesAnchor('3.3.0')}`);
    // And the release's landing page, in numbers.
    expect(files.get('README.md')).toContain(
      `(against 2.3.0: ${listed(page, '3.3.0', 'Removed').length} removed, ${listed(page, '3.3.0', 'Changed').length} changed, ${added.length} added)`,
    );
  });
});

// Every release that the portal's own sources file publishes (one per minor line from 1.0),
// synced as `npm run sync` syncs it, into a cache of this test's own.
describe('the API reference of every release the portal publishes', () => {
  const portalSite = join(import.meta.dirname, '..', '..', '..', '..');
  const allCache = join(work, 'all-cache');
  let nav: Source;
  let synced: CachedSource;

  beforeAll(async () => {
    const loaded = loadSources(join(portalSite, 'sources.yaml'), { siteDir: portalSite });
    nav = loaded.sources.find((entry) => entry.id === 'norigin-spatial-navigation') as Source;
    const all = await sync({ ...loaded, sources: [nav] }, { cacheDir: allCache, root: work });
    synced = all.sources[nav.id] as CachedSource;
  }, 240_000);

  // A TypeScript program per release (11 and more): longer than the default 20 s on a loaded machine.
  it('gives every name each release’s index.d.ts exports a page, and no page to anything else', () => {
    const versions = (synced.versions ?? []).map((entry) => entry.version);
    // One per minor line from 1.0 (3.3 the newest when this was written).
    expect(versions.length).toBeGreaterThanOrEqual(11);
    expect(versions.some((version) => version.startsWith('1.0.'))).toBe(true);
    const { files } = sectionPages(nav, synced, { cacheDir: allCache, siteDir: portalSite });
    // The sync makes a reference of every release (24), for the API changes between any two.
    const documented = (synced.api ?? []).filter((entry) => entry.dir && !entry.error).map((entry) => entry.version);
    expect(documented).toEqual(expect.arrayContaining(versions));
    for (const version of versions) {
      const { pages, exported } = pagesAndExports(
        files,
        allCache,
        version,
        version === versions[0] ? '' : `${version}/`,
      );
      expect(exported.length, version).toBeGreaterThan(0);
      expect(pages, version).toEqual(exported);
    }
  }, 120_000);

  it('dates every release as the registry’s `time` does, and compares each with the previous in version order', () => {
    const time = JSON.parse(
      execFileSync('npm', ['view', '@noriginmedia/norigin-spatial-navigation', 'time', '--json'], {
        cwd: work,
        encoding: 'utf8',
      }),
    ) as Record<string, string>;
    const { files } = sectionPages(nav, synced, { cacheDir: allCache, siteDir: portalSite });
    const history = files.get('CHANGELOG.md') as string;
    const days = new Map([...history.matchAll(/^## (\S+) - (\S+)$/gm)].map(([, version, day]) => [version, day]));
    const releases = (synced.releases ?? []).map((release) => release.version);
    expect(releases.length).toBeGreaterThanOrEqual(24);
    expect([...days.keys()]).toEqual(releases);
    for (const version of releases) expect(days.get(version), version).toBe(time[version]?.slice(0, 10));
    // The changes page of the newest release: each section against the next lower version with a reference.
    const page = files.get('api/api-changes.md') as string;
    const withReference = (synced.api ?? [])
      .filter((entry) => entry.dir && !entry.error)
      .map((entry) => entry.version)
      .sort(semver.rcompare);
    withReference.slice(0, -1).forEach((version, index) => {
      const section = page.split(/^## /m).find((part) => part.startsWith(`Version ${version}\n`)) ?? '';
      expect(/Compared with (\S+), the previous release in version order\./.exec(section)?.[1], version).toBe(
        withReference[index + 1],
      );
    });
  });

  // The guides the portal's authors write for a range of releases: their code is what readers copy.
  it('compiles every example of each versioned page against each release it is written for', () => {
    const guides = versionedPages(portalSite, nav);
    expect(guides.length).toBeGreaterThan(0);
    const checked: string[] = [];
    for (const guide of guides) {
      const blocks = [...guide.body.matchAll(/^```tsx?([^\n]*)\n([\s\S]*?)^```$/gm)].map(([, meta, code]) => ({
        since: /\bsince=(\S+)/.exec(meta ?? '')?.[1],
        code: code ?? '',
      }));
      expect(blocks.length, guide.name).toBeGreaterThanOrEqual(5);
      for (const { version } of (synced.versions ?? []).filter((entry) =>
        semver.satisfies(entry.version, guide.range),
      )) {
        const declarations = join(
          allCache,
          'types',
          '@noriginmedia+norigin-spatial-navigation',
          version,
          'declarations',
        );
        const code = blocks
          .filter((block) => !block.since || semver.gte(version, block.since))
          .map((block) => block.code);
        expect(
          typeErrors(code, declarations, join(work, 'examples', guide.name, version)),
          `${guide.name} at ${version}`,
        ).toEqual([]);
        checked.push(version);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['3.3.0', '3.2.1', '3.1.0']));
  }, 60_000);

  it('fails an example that uses what a release does not export', () => {
    const declarations = join(allCache, 'types', '@noriginmedia+norigin-spatial-navigation', '3.1.0', 'declarations');
    const errors = typeErrors(
      [
        "import { GetBoundingClientRectAdapter, init } from '@noriginmedia/norigin-spatial-navigation';\ninit({ layoutAdapter: GetBoundingClientRectAdapter });\n",
      ],
      declarations,
      join(work, 'examples', 'refused'),
    );
    expect(errors.join('\n')).toMatch(/GetBoundingClientRectAdapter/);
    // And JSX against React's types: a div's ref on an input.
    const jsx = typeErrors(
      [
        "import { useFocusable } from '@noriginmedia/norigin-spatial-navigation';\nexport function Tile() {\n  const { ref } = useFocusable<object, HTMLDivElement>();\n  return <input ref={ref} />;\n}\n",
      ],
      declarations,
      join(work, 'examples', 'refused-jsx'),
    );
    expect(jsx.join('\n')).toMatch(/^example-1\.tsx:4: .*HTMLInputElement/s);
  });
});
