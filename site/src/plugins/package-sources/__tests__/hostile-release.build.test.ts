// A compromised release of the open section's package, published to a registry the test
// starts (Verdaccio) and synced and built for real: its README, changelog, docs/, manifest
// fields, doc comments, export names, file names and sizes each carry a payload. Nothing is
// written outside the content cache, nothing runs at build time, no markup renders, the CSP
// allows no content script, a release over the limits is refused whole (the one before it
// stays published) and the portal's other sections still build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { loadSources, readState, type SyncState, sync } from '@portal/sync';
import { load } from 'cheerio';
import { syncPaths } from '@portal/sync/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { copySiteSources, docusaurus } from '../../../../../tools/lib/site-copy.mjs';
import { type RunningVerdaccio, startVerdaccio } from '../../../../../tools/lib/verdaccio.mjs';

const { root } = syncPaths();
// Inside the repository (the copy resolves its packages from the root's node_modules), in the ignored cache folder.
const work = join(root, '.cache', `hostile-release-test-${process.pid}`);
const siteDir = join(work, 'site');
const cacheDir = join(work, 'cache');
const buildDir = join(siteDir, 'build');
/** What a payload that ran at build time would write. */
const MARKER = join(work, 'payload-ran');
const NAME = '@noriginmedia/norigin-spatial-navigation';
const SECTION = join(buildDir, 'docs', 'Norigin-Spatial-Navigation');

const run = `{globalThis.process?.getBuiltinModule?.('fs').writeFileSync(${JSON.stringify(MARKER)}, 'ran')}`;
const esm = `export const ran = globalThis.process?.getBuiltinModule?.('fs').writeFileSync(${JSON.stringify(MARKER)}, 'esm');`;
/** A front matter block that would make Docusaurus compile the page as MDX. */
const mdx = '---\nmdx:\n  format: mdx\n---\n';
const scripts = (where: string) =>
  `<script>window.__pwned = '${where}'</script>\n\n<img src="x" onerror="window.__pwned = '${where} image'">`;

const hostileReadme = [
  mdx,
  '# Spatial Navigation',
  '',
  'The compromised release.',
  '',
  run,
  '',
  esm,
  '',
  scripts('readme'),
  '',
  '[Click](javascript:alert(1)) and [a reference][evil].',
  '',
  '[evil]: javascript:alert(2)',
  '',
  'Use `useFocusable` from `(a+)+$`.',
].join('\n');

const hostileDeclarations = `/// <reference path="./secrets.d.ts" />
/**
 * ${mdx.trim().split('\n').join('\n * ')}
 * ${run}
 * <script>window.__pwned = 'doc comment'</script>
 *
 * @example
 * \`\`\`ts
 * </code><script>window.__pwned = 'example'</script>
 * \`\`\`
 */
export declare namespace Hostile {
  const x: number;
}
declare const inner: number;
export { inner as "../../../../../../escaped-export", inner as "(a+)+$", inner as "with space", inner as "back\`tick" };
/** Moves focus, see [this](javascript:alert(1)) and <b onmouseover="window.__pwned = 'summary'">that</b>. */
export declare function useFocusable(): void;
`;

let verdaccio: RunningVerdaccio;
let state: SyncState;
let buildOutput = '';

function* filesBelow(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesBelow(path);
    else yield path;
  }
}

function inlineScripts(html: string): string[] {
  const $ = load(html);
  return $('script:not([src])')
    .toArray()
    .filter((script) => !/json/.test(script.attribs.type ?? ''))
    .map((script) => $(script).html() ?? '');
}
const hash = (script: string) => `sha256-${createHash('sha256').update(script).digest('base64')}`;

beforeAll(async () => {
  mkdirSync(work, { recursive: true });
  verdaccio = await startVerdaccio({ work });
  const token = await verdaccio.addUser('publisher', 'a-long-enough-password');
  const manifest = (version: string) => ({ name: NAME, version, types: 'dist/index.d.ts' });
  await verdaccio.publishTarball(
    {
      manifest: manifest('3.3.0'),
      files: {
        'package.json': JSON.stringify({
          name: `${NAME}<img src=x onerror=alert(1)>`,
          version: '3.3.0',
          description: `Focus ${scripts('description')}`,
          license: 'MIT<script>window.__pwned = "licence"</script>',
          homepage: 'javascript:alert(1)',
          repository: 'javascript:alert(2)',
          peerDependencies: { react: ">=18 <script>window.__pwned = 'range'</script>", '<b>peer</b>': '1.0.0' },
          types: 'dist/index.d.ts',
        }),
        'README.md': hostileReadme,
        'CHANGELOG.md': `${mdx}# Changes\n\n${scripts('changelog')}\n\n${run}\n`,
        LICENSE: `MIT\n\n\`\`\`\n${scripts('licence file')}\n`,
        'docs/guide.md': `${mdx}# Guide\n\n${run}\n\n${esm}\n\n${scripts('docs page')}\n`,
        'docs/evil name.md': `# Evil\n\n${scripts('spaced name')}\n`,
        'docs/big.md': `# Big\n\n${'x'.repeat(600 * 1024)}\n`,
        'dist/index.d.ts': hostileDeclarations,
        'dist/index.js': 'export {};\n',
      },
      links: { 'docs/passwd.md': '/etc/passwd', 'dist/secrets.d.ts': '/etc/hostname' },
    },
    token,
  );
  // Over the limit of a release's files together: refused whole, so 3.3.0 stays the newest.
  await verdaccio.publishTarball(
    {
      manifest: manifest('3.4.0'),
      files: {
        'package.json': JSON.stringify({ name: NAME, version: '3.4.0', types: 'dist/index.d.ts' }),
        'README.md': '# Spatial Navigation\n\nToo big.\n',
        ...Object.fromEntries(
          Array.from({ length: 18 }, (_, index) => [`docs/part-${index}.md`, `# Part\n\n${'y'.repeat(500 * 1024)}\n`]),
        ),
        'dist/index.d.ts': 'export declare function useFocusable(): void;\n',
      },
    },
    token,
  );

  copySiteSources(siteDir, { gateFiles: true });
  const sources = join(siteDir, 'sources.yaml');
  writeFileSync(sources, readFileSync(sources, 'utf8').replace("versions: '>=1.0.0'", "versions: '>=3.3.0'"));
  writeFileSync(join(work, '.npmrc'), verdaccio.npmrc('@noriginmedia', token));
  const env = { ...process.env, HOME: work, npm_config_fetch_retries: '0' };
  state = await sync(loadSources(sources, { siteDir }), { cacheDir, root: work, env });
  buildOutput = await docusaurus(siteDir, 'build', { cacheDir });
}, 600_000);

afterAll(async () => {
  await verdaccio?.stop();
  if (!process.env.KEEP_HOSTILE) rmSync(work, { recursive: true, force: true });
});

describe('a hostile release of the open section, synced and built', () => {
  it('refuses the release over the limits whole, keeps the one before it, and says why', () => {
    const source = readState(cacheDir)?.sources['norigin-spatial-navigation'];
    expect(source?.versions?.map((version) => version.version)).toEqual(['3.3.0']);
    expect(source?.refused?.map((entry) => entry.version)).toEqual(['3.4.0']);
    expect(source?.refused?.[0]?.reason).toMatch(/its files come to 8\.8 MiB, more than the 8\.0 MiB a release may/);
    expect(state.sources['norigin-spatial-navigation']?.refused?.[0]?.version).toBe('3.4.0');
  });

  it('leaves out files with unsafe names, links and files over the size limit', () => {
    const [kept] = state.sources['norigin-spatial-navigation']?.versions ?? [];
    expect(kept?.files).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'docs/guide.md', 'package.json']);
    const notes = (kept?.notes ?? []).join('\n');
    expect(notes).toContain('"docs/evil name.md" is left out');
    expect(notes).toMatch(/docs\/big\.md is left out: it is 0\.6 MiB/);
  });

  it('keeps no package.json field that is not plain text or an address npm allows', () => {
    const [kept] = state.sources['norigin-spatial-navigation']?.versions ?? [];
    expect(kept?.manifest).toEqual({ description: expect.stringContaining('Focus') as string });
    // Its words only: the tags are gone, the text between them stays text.
    expect(kept?.manifest.description).toMatch(/^Focus [^<>]+$/);
  });

  it('documents identifier exports only, and names the others', () => {
    const api = state.sources['norigin-spatial-navigation']?.api?.find((entry) => entry.version === '3.3.0');
    expect(api?.refused?.map((entry) => entry.name).sort()).toEqual(
      ['(a+)+$', '../../../../../../escaped-export', 'back`tick', 'with space'].sort(),
    );
    expect(readdirSync(join(cacheDir, api?.dir ?? '', 'pages')).sort()).toEqual(['Hostile.md', 'useFocusable.md']);
  });

  it('reads no file through a link out of the release', () => {
    const declarations = join(cacheDir, 'types', NAME.replace('/', '+'), '3.3.0', 'declarations', 'package', 'dist');
    expect(readdirSync(declarations)).toEqual(['index.d.ts']);
  });

  it('writes nothing outside the content cache and the section', () => {
    const escaped = [...filesBelow(work), ...filesBelow(join(root, 'site', 'docs'))].filter((file) =>
      /escaped/.test(relative(root, file)),
    );
    expect(escaped).toEqual([]);
  });

  it('runs nothing at build time', () => {
    expect(existsSync(MARKER)).toBe(false);
    // The expression is the page's words: the page was read as CommonMark, never as MDX.
    expect(readFileSync(join(SECTION, 'index.html'), 'utf8')).toContain('getBuiltinModule');
    expect(readFileSync(join(SECTION, 'docs', 'guide', 'index.html'), 'utf8')).toContain('getBuiltinModule');
  });

  it('renders no markup from the package on any page, and no address but the web', () => {
    const pages = [...filesBelow(SECTION)].filter((file) => file.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(4);
    for (const file of pages) {
      const html = readFileSync(file, 'utf8');
      const $ = load(html);
      expect(
        inlineScripts(html).filter((script) => script.includes('__pwned')),
        file,
      ).toEqual([]);
      const handlers = $('*')
        .toArray()
        .flatMap((element) => Object.keys('attribs' in element ? element.attribs : {}))
        .filter((name) => /^on/i.test(name));
      expect(handlers, file).toEqual([]);
      expect($('img[src="x"], b:contains("peer")').length, file).toBe(0);
      expect($('[href^="javascript:" i], [src^="javascript:" i]').length, file).toBe(0);
    }
  });

  it("lets the CSP allow the portal's own inline scripts and nothing found in a page", () => {
    const manifest = JSON.parse(readFileSync(join(buildDir, 'portal-manifest.json'), 'utf8')) as {
      inlineScriptHashes: string[];
    };
    const own = new Set(
      ['404.html', 'index.html', join('account', 'refused', 'index.html')].flatMap((page) =>
        inlineScripts(readFileSync(join(buildDir, page), 'utf8')).map(hash),
      ),
    );
    expect(new Set(manifest.inlineScriptHashes)).toEqual(own);
    expect(buildOutput).not.toContain("inline script that is not the portal's own");
  });

  it("builds the portal's other sections as ever", () => {
    const layout = readFileSync(join(buildDir, 'docs', 'layout-engine', 'index.html'), 'utf8');
    expect(layout).toContain('Layout Engine');
    expect(existsSync(join(buildDir, 'docs', 'frontend-guidelines', 'index.html'))).toBe(true);
  });
});
