import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';

import { unitsOfGroups, withShelves } from '@portal/access';
import { SEARCH_FILES_PATH, searchStartBundleOf, unpackSearchFiles } from '@portal/search';
import { loadSources, sync } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

import { startVerdaccio } from '../../tools/lib/verdaccio.mjs';

import { adminReader, demoReader, emulatorReaders, noAccessReader, partnerReader } from '../readers';
import { IsolatedPortal } from './isolated';
import { full, rawRequest, searchableText } from './lib';
import { recordFigure } from './record';

/*
 * Builds a copy of the site with unique canary sentences planted in pages of each
 * audience, serves it with the gate server, and fetches every file of that build under
 * several spellings of its path as each kind of reader outside those pages' groups:
 * anonymous, a partner, and an account with no group (which gets no session, so it
 * tries a forged groups hint instead). No answer, whatever its status, may carry a
 * canary of a page its reader may not read.
 *
 * Staff-only canaries sit in the GitFlow guideline (body, heading, code, an imported
 * image and its alt text, its front-matter description) and in a chunk that only a
 * staff-only page loads (a lazily imported module). Partner canaries sit in the layout
 * engine's landing page (body and description), the DASH adapter's page, the in-depth
 * navigation guide, a blog post and the blog's description, and in a private package that the
 * crawl publishes to a registry of its own (Verdaccio) in two releases and syncs into the
 * layout engine's section: its README and its type declarations' doc comments, in the newest
 * release and in the older one only, so that an older release's pages, search bundle, Markdown
 * twins, API reference and the package's API models are crawled too.
 *
 * Three organisations with different licences crawl too (created through the admin API of
 * the crawl's own gate): each must read every file of its licensed units and see no canary
 * of a unit it does not hold, whether it never had it or its licence for it ended.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const work = join(root, 'e2e', '.canary');
const siteDir = join(work, 'site');
const run = randomBytes(4).toString('hex');
const canary = (where: string): string => `Canary ${where} ${run} the heron counts backwards`;
const staffCanaries = {
  body: canary('staff body'),
  heading: canary('staff heading'),
  code: canary('staff code'),
  alt: canary('staff alt'),
  image: canary('staff image'),
  description: canary('staff description'),
  lazyChunk: canary('staff lazy chunk'),
};
const partnerCanaries = {
  body: canary('partner body'),
  description: canary('partner description'),
  package: canary('partner package'),
  sibling: canary('partner sibling'),
  blog: canary('partner blog'),
  blogDescription: canary('partner blog description'),
  syncedReadme: canary('partner synced readme'),
  olderReadme: canary('partner older readme'),
  symbolDoc: canary('partner symbol doc'),
  olderSymbolDoc: canary('partner older symbol doc'),
};
const allCanaries = { ...staffCanaries, ...partnerCanaries };
/** The unit each partner canary's page belongs to. */
const unitOfPartnerCanary: Record<keyof typeof partnerCanaries, string> = {
  body: 'layout',
  description: 'layout',
  package: 'player-adapter-dash',
  sibling: 'navigation',
  blog: 'blog',
  blogDescription: 'blog',
  syncedReadme: 'layout',
  olderReadme: 'layout',
  symbolDoc: 'layout',
  olderSymbolDoc: 'layout',
};

/** The private package's name, and its section: inside the layout engine's, so of that unit. */
const canaryPackage = '@tvco/canary-kit';
const canarySection = 'layout-engine/canary-kit';

/**
 * Publishes the private package in two releases to a registry the crawl starts, and syncs it
 * (README, declarations, reference) into a copy of the content cache beside the site's own,
 * as the section the copied sources file gains. Answers that cache's folder.
 */
async function syncPrivatePackage(): Promise<string> {
  const registryWork = join(work, 'registry');
  const project = join(work, 'project');
  mkdirSync(registryWork, { recursive: true });
  mkdirSync(project, { recursive: true });
  const verdaccio = await startVerdaccio({ work: registryWork });
  try {
    const token = await verdaccio.addUser('publisher', 'a-long-enough-password');
    const releases: Record<string, { readme: string; declarations: string[] }> = {
      '1.0.0': {
        readme: partnerCanaries.olderReadme,
        declarations: [
          `/** ${partnerCanaries.olderSymbolDoc}. */`,
          'export declare function retireHeron(): void;',
          `/** ${partnerCanaries.symbolDoc}. */`,
          'export declare function countHerons(key: string): number;',
        ],
      },
      '1.1.0': {
        readme: partnerCanaries.syncedReadme,
        declarations: [
          `/** ${partnerCanaries.symbolDoc}. */`,
          'export declare function countHerons(key: string, backwards?: boolean): number;',
        ],
      },
    };
    for (const [version, release] of Object.entries(releases))
      verdaccio.publishTyped(
        {
          name: canaryPackage,
          version,
          description: 'A private package of the leak crawl',
          readme: `# Canary kit\n\n${release.readme}\n`,
          declarations: `${release.declarations.join('\n')}\n`,
        },
        token,
      );
    writeFileSync(join(project, '.npmrc'), verdaccio.npmrc('@tvco', token));
    const sourcesFile = join(siteDir, 'sources.yaml');
    appendFileSync(
      sourcesFile,
      `  - id: canary-kit\n    kind: npm\n    package: '${canaryPackage}'\n    section: ${canarySection}\n` +
        `    title: Canary kit\n    versions: '>=1.0.0'\n    pick: all\n`,
    );
    // The site's own sources come from its cache as they are; only the private package is fetched.
    const cacheDir = join(work, 'sources-cache');
    cpSync(syncPaths().cacheDir, cacheDir, { recursive: true });
    await sync(loadSources(sourcesFile, { siteDir }), {
      cacheDir,
      root: project,
      only: ['canary-kit'],
      env: { ...process.env, HOME: registryWork },
    });
    return cacheDir;
  } finally {
    await verdaccio.stop();
  }
}

interface Entry {
  url: string;
  file: string;
  access: 'public' | 'private';
  units: string[];
  kind: 'page' | 'file';
}

let portal: IsolatedPortal;
let manifest: { entries: Record<string, Entry> };

test.describe.configure({ mode: 'serial' });

const setDescription = (file: string, description: string): void => {
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^description: .*$/m, `description: ${description}`));
};

test.beforeAll(async () => {
  test.setTimeout(5 * 60_000);
  rmSync(work, { recursive: true, force: true });
  const source = join(root, 'site');
  cpSync(source, siteDir, {
    recursive: true,
    filter: (path) => !/[/\\](node_modules|build|\.docusaurus)([/\\]|$)/.test(path.slice(source.length)),
  });
  const docs = join(siteDir, 'docs');
  const gitflow = join(docs, 'frontend-guidelines', 'GitFlow.md');
  setDescription(gitflow, staffCanaries.description);
  appendFileSync(
    gitflow,
    `\n## ${staffCanaries.heading}\n\n${staffCanaries.body}\n\n\`\`\`ts\nconst note = '${staffCanaries.code}';\n\`\`\`\n\n![${staffCanaries.alt}](./canary-diagram.svg)\n`,
  );
  // Larger than the bundler's 10 kB inlining limit, so it becomes a file of its own under /assets/images/.
  writeFileSync(
    join(docs, 'frontend-guidelines', 'canary-diagram.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="40"><text x="4" y="24">${staffCanaries.image}</text><!-- ${'padding '.repeat(2000)}--></svg>\n`,
  );
  // A staff-only page whose component loads a module lazily: a chunk that only it loads.
  writeFileSync(
    join(docs, 'frontend-guidelines', 'canary-lazy.mdx'),
    `---\ntitle: Canary lazy chunk\ndescription: A page that loads a chunk of its own.\n---\n\nimport LazyCanary from './canary-lazy-loader';\n\n<LazyCanary />\n`,
  );
  writeFileSync(
    join(docs, 'frontend-guidelines', 'canary-lazy-loader.jsx'),
    `import React, { useEffect, useState } from 'react';\nexport default function LazyCanary() {\n  const [text, setText] = useState('loading');\n  useEffect(() => { import('./canary-lazy-chunk').then((module) => setText(module.CANARY)); }, []);\n  return <p data-canary>{text}</p>;\n}\n`,
  );
  writeFileSync(
    join(docs, 'frontend-guidelines', 'canary-lazy-chunk.js'),
    `export const CANARY = ${JSON.stringify(staffCanaries.lazyChunk)};\n`,
  );
  const layout = join(docs, 'layout-engine', 'README.md');
  setDescription(layout, partnerCanaries.description);
  appendFileSync(layout, `\n${partnerCanaries.body}\n`);
  appendFileSync(join(docs, 'Spat-Nav', 'Detailed_README_SpatNav.md'), `\n${partnerCanaries.sibling}\n`);
  appendFileSync(
    join(docs, 'player-manager-mono', 'packages', 'player-adapter-dash.js', 'README.md'),
    `\n${partnerCanaries.package}\n`,
  );
  const welcome = readdirSync(join(siteDir, 'blog')).find((name) => name.endsWith('-welcome'));
  appendFileSync(join(siteDir, 'blog', welcome ?? '', 'index.md'), `\n${partnerCanaries.blog}\n`);
  // The blog's description, read by its plugin at build time (site/src/plugins/private-blog.ts).
  writeFileSync(join(siteDir, 'blog', 'description.txt'), `${partnerCanaries.blogDescription}\n`);

  const sourcesCache = await syncPrivatePackage();

  const docusaurus = join(root, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');
  const build = spawnSync(process.execPath, [docusaurus, 'build'], {
    cwd: siteDir,
    encoding: 'utf8',
    env: { ...process.env, PORTAL_SOURCES_CACHE: sourcesCache },
  });
  // The build's gate-files plugin labels the files and writes the manifest.
  if (build.status !== 0) throw new Error(`canary build failed:\n${build.stdout}\n${build.stderr}`);
  manifest = JSON.parse(readFileSync(join(siteDir, 'build', 'portal-manifest.json'), 'utf8')) as typeof manifest;

  portal = new IsolatedPortal({ SESSION_SECRET: 'canary-secret-for-this-gate-server-only' }, emulatorReaders.host);
  await portal.startServer(join(siteDir, 'build'));
});

test.afterAll(async () => {
  await portal?.stop();
  rmSync(work, { recursive: true, force: true });
});

function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

test('the canaries are in the build, each in files labelled with its readers, and readers read their own', async () => {
  const files = filesOf(join(siteDir, 'build')).filter((file) => !/\.(br|gz)$/.test(file));
  const texts = new Map(files.map((file) => [file, searchableText(readFileSync(file, 'latin1'))]));
  for (const [where, sentence] of Object.entries(allCanaries)) {
    expect(
      [...texts.values()].some((text) => text.includes(sentence)),
      where,
    ).toBe(true);
  }
  const byUrl = new Map(Object.values(manifest.entries).map((entry) => [entry.file, entry]));
  const labelsOf = (sentence: string): string[] =>
    [...texts]
      .filter(([, text]) => text.includes(sentence))
      .map(([file]) => byUrl.get(file.slice(join(siteDir, 'build').length + 1)))
      .map((entry) => (entry ? (entry.access === 'public' ? 'public' : entry.units.join('+')) : 'unlisted'));
  // Every file holding a staff canary is labelled with units no partner holds (the internal
  // pages'); partner canaries sit in files of units, never in public or unlisted ones.
  const partnerUnits = unitsOfGroups(['partner']);
  for (const [where, sentence] of Object.entries(staffCanaries))
    for (const label of labelsOf(sentence)) {
      expect(label, where).not.toMatch(/^(public|unlisted)$/);
      expect(
        label.split('+').filter((unit) => partnerUnits.includes(unit)),
        where,
      ).toEqual([]);
    }
  for (const [where, sentence] of Object.entries(partnerCanaries))
    for (const label of labelsOf(sentence)) expect(label, where).not.toMatch(/^(public|unlisted)$/);
  // The private package's older release is built and crawled like the newest: its pages,
  // their Markdown twins, its reference, its own search bundle and the package's API models.
  const buildDir = join(siteDir, 'build');
  const holding = (sentence: string): string[] =>
    [...texts].filter(([, text]) => text.includes(sentence)).map(([file]) => file.slice(buildDir.length + 1));
  const older = `docs/${canarySection}/1.0.0/`;
  expect(holding(partnerCanaries.olderReadme)).toEqual(
    expect.arrayContaining([`${older}index.html`, `${older.slice(0, -1)}.md`]),
  );
  expect(holding(partnerCanaries.olderReadme).some((file) => file.startsWith('search/layout/older/1.0.0/'))).toBe(true);
  expect(holding(partnerCanaries.olderSymbolDoc)).toEqual(
    expect.arrayContaining([`${older}api/retireHeron/index.html`, `docs/${canarySection}/api/models.json`]),
  );
  // The newest release is not the older one: it has no page of what it no longer exports.
  expect(holding(partnerCanaries.olderSymbolDoc).some((file) => file.startsWith(`docs/${canarySection}/api/ret`))).toBe(
    false,
  );

  // The lazily loaded module is a chunk of its own, and it is staff-only.
  const lazyChunks = [...texts]
    .filter(([file, text]) => text.includes(staffCanaries.lazyChunk) && /assets\/js\/[^/]+\.js$/.test(file))
    .map(([file]) => file);
  expect(lazyChunks.length).toBeGreaterThan(0);

  const staff = await portal.signIn(demoReader.email, demoReader.password);
  const staffPage = await (
    await fetch(`${portal.baseURL}/docs/frontend-guidelines/GitFlow`, { headers: { cookie: staff } })
  ).text();
  for (const sentence of [staffCanaries.heading, staffCanaries.body, staffCanaries.code, staffCanaries.alt])
    expect(staffPage).toContain(sentence);
  const partner = await portal.signIn(partnerReader.email, partnerReader.password);
  const partnerPage = await (
    await fetch(`${portal.baseURL}/docs/layout-engine/`, { headers: { cookie: partner } })
  ).text();
  expect(partnerPage).toContain(partnerCanaries.body);
});

/** The same path spelled the ways a gate could be fooled into reading it differently. */
export function spellings(url: string): string[] {
  const bare = url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url;
  const segments = bare.split('/').slice(1);
  const last = segments.at(-1) ?? '';
  const first = segments[0] ?? '';
  const rest = segments.slice(1).join('/');
  const fromPublic = `/docs/Norigin-Spatial-Navigation/..${url.startsWith('/docs/') ? url.slice(5) : url}`;
  const basic = [
    url,
    url.toUpperCase(),
    url.endsWith('/') ? bare : `${url}/`,
    `/${first}/./${rest}`,
    `/${url}`.replace(/\//g, '//'),
    fromPublic,
    fromPublic.replace('..', '%2e%2e'),
    fromPublic.replace('../', '..%2f'),
  ];
  if (!full) return basic;
  const encodedLast = last.length > 0 ? `%${last.charCodeAt(0).toString(16)}${last.slice(1)}` : last;
  return [
    ...basic,
    `${url}?v=1`,
    bare.replace(/\//g, '%2f').replace(/^%2f/, '/'),
    bare.replace(/\//g, '%2F').replace(/^%2F/, '/'),
    `${bare.slice(0, bare.length - last.length)}${encodedLast}`,
    `${bare.slice(0, bare.length - last.length)}${encodedLast.replace('%', '%25')}`,
    `${bare}.`,
    `${bare};`,
    `${bare};jsessionid=0`,
    `${bare}%00`,
    `${bare}%00.html`,
    bare.replace(/\//g, '\\'),
    bare.replace(/\//g, '%5c').replace(/^%5c/, '/'),
    `/docs/Norigin-Spatial-Navigation/%2e%2e%2f${url.startsWith('/docs/') ? url.slice(6) : url.slice(1)}`,
    `/DOCS/NORIGIN-SPATIAL-NAVIGATION/..%252f${url.slice(1)}`,
    `/docs/Norigin-Spatial-Navigation/.%2e/${url.slice(1)}`,
    `${bare}/.`,
    `${bare}/..`,
    `${bare}%20`,
    `${bare}%09`,
    `http://127.0.0.1${url}`,
  ];
}

/** A reader of the crawl: the cookie header they send and the canaries they must never see. */
interface Crawler {
  name: string;
  cookie: () => Promise<string>;
  forbidden: Record<string, string>;
  /** The units the crawler's reader holds; null: no session. */
  units: string[] | null;
}

const crawlers: Crawler[] = [
  { name: 'anonymous', cookie: async () => '', forbidden: allCanaries, units: null },
  {
    name: 'partner',
    cookie: () => portal.signIn(partnerReader.email, partnerReader.password),
    forbidden: staffCanaries,
    units: unitsOfGroups(['partner']),
  },
  {
    // No group: the gate gives no session (checked here), so the account can only
    // present what any browser could: a forged groups hint claiming staff.
    name: 'no group',
    cookie: async () => {
      const idToken = await emulatorReaders.signIn(noAccessReader.email, noAccessReader.password);
      const response = await fetch(`${portal.baseURL}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: portal.baseURL },
        body: JSON.stringify({ idToken }),
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
      return 'portal_groups=staff.admin; portal_units=internal.administration.all-units';
    },
    forbidden: allCanaries,
    units: null,
  },
];

/**
 * A reader of an organisation made for the crawl, with these licences (`endsOn` in the past:
 * an ended one): forbidden every staff canary and every partner canary of a unit its live
 * licences do not give.
 */
function licensed(name: string, licences: { units: string[]; endsOn?: string }[]): Crawler {
  const live = [...new Set(licences.filter((licence) => !licence.endsOn).flatMap((licence) => licence.units))];
  const id = `crawl-${name}-${run}`;
  // Made once: the organisation and its reader exist after the first call.
  let session: Promise<string> | undefined;
  return {
    name: `licensed ${name}`,
    cookie: () => (session ??= signUp()),
    forbidden: {
      ...staffCanaries,
      ...Object.fromEntries(
        Object.entries(partnerCanaries).filter(
          ([where]) => !live.includes(unitOfPartnerCanary[where as keyof typeof partnerCanaries]),
        ),
      ),
    },
    units: withShelves(['account', ...live]),
  };

  async function signUp(): Promise<string> {
    const admin = await portal.signIn(adminReader.email, adminReader.password);
    const call = async (path: string, body: unknown) => {
      const response = await fetch(`${portal.baseURL}${path}`, {
        method: 'POST',
        headers: { cookie: admin, origin: portal.baseURL, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBe(201);
    };
    await call('/api/admin/organisations', { id, name: `Crawl ${name}`, domains: [`${id}.example`] });
    for (const licence of licences) await call(`/api/admin/organisations/${id}/licences`, licence);
    const reader = await emulatorReaders.create({ groups: [], email: `dev@${id}.example` });
    return portal.signIn(reader.email, reader.password);
  }
}

const organisations = {
  dash: licensed('dash', [{ units: ['player-adapter-dash', 'blog'] }]),
  layout: licensed('layout', [{ units: ['layout', 'navigation'] }]),
  ended: licensed('ended', [{ units: ['layout', 'player-adapter-dash'], endsOn: '2026-01-31' }, { units: ['blog'] }]),
};
crawlers.push(...Object.values(organisations));

for (const crawler of crawlers) {
  test(`no request for any file of the build, however spelled, shows a ${crawler.name} reader a canary of another audience`, async () => {
    test.setTimeout(full ? 10 * 60_000 : 3 * 60_000);
    const cookie = await crawler.cookie();
    const sentences = Object.values(crawler.forbidden);
    const encodings = full ? ['br, gzip', 'gzip', 'identity'] : ['br, gzip'];
    let tried = 0;
    const leaks: string[] = [];
    const wrongAnswers: string[] = [];
    const statuses = new Map<number, number>();
    for (const entry of Object.values(manifest.entries)) {
      const paths = spellings(encodeURI(entry.url));
      const readable = entry.access === 'public' || (crawler.units ?? []).some((unit) => entry.units.includes(unit));
      await Promise.all(
        paths.flatMap((path) =>
          encodings.map(async (encoding) => {
            const headers: Record<string, string> = { 'accept-encoding': encoding };
            if (cookie) headers.cookie = cookie;
            const response = await rawRequest(portal.baseURL, { path, headers });
            tried += 1;
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            // Every answer's body counts, whatever its status.
            const text = searchableText(response.body);
            const found = sentences.filter((sentence) => text.includes(sentence));
            if (found.length > 0) leaks.push(`${response.status} ${path}: ${found.join('; ')}`);
            if (response.status >= 500) wrongAnswers.push(`${response.status} ${path}`);
            if (path === encodeURI(entry.url)) {
              const expected = readable ? [200] : crawler.units ? [403] : [302, 401];
              if (!expected.includes(response.status))
                wrongAnswers.push(`${response.status} ${path} (expected ${expected.join(' or ')})`);
            }
          }),
        ),
      );
    }
    const byStatus = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
    console.log(
      `leak crawl as ${crawler.name}: ${tried} requests over ${Object.keys(manifest.entries).length} files, ${leaks.length} leaks, answers ${JSON.stringify(byStatus)}`,
    );
    recordFigure(`leak_crawl_${crawler.name.replace(/\W+/g, '_')}`, {
      requests: tried,
      files: Object.keys(manifest.entries).length,
      leaks: leaks.length,
      statuses: byStatus,
    });
    expect(tried).toBeGreaterThan(full ? 10_000 : 2000);
    expect(leaks).toEqual([]);
    expect(wrongAnswers).toEqual([]);
  });
}

/**
 * The search's files of every bundle of the build (SEARCH_FILES_PATH), asked as each reader:
 * all bundles in one request, and each alone. An answer holds exactly the bundles' first
 * files the reader may read as files, and no canary of another audience, looked for inside
 * each file (Pagefind's index files are gzip-compressed).
 */
test('the search files answer gives each reader the files of their own bundles, no canary of another', async () => {
  test.setTimeout(3 * 60_000);
  const startFiles = Object.values(manifest.entries).filter((entry) => searchStartBundleOf(entry.url) !== null);
  const bundles = [...new Set(startFiles.map((entry) => searchStartBundleOf(entry.url) as string))];
  expect(bundles.length).toBeGreaterThan(20);
  expect(bundles.some((bundle) => bundle.includes('/older/'))).toBe(true);
  for (const crawler of crawlers) {
    const cookie = await crawler.cookie();
    const expected = startFiles
      .filter((entry) => entry.access === 'public' || (crawler.units ?? []).some((unit) => entry.units.includes(unit)))
      .map((entry) => entry.url)
      .sort();
    const leaks: string[] = [];
    const got = new Set<string>();
    for (const list of [bundles, ...bundles.map((bundle) => [bundle])]) {
      const response = await fetch(
        `${portal.baseURL}${SEARCH_FILES_PATH}?bundles=${encodeURIComponent(list.join(','))}`,
        {
          headers: cookie ? { cookie } : {},
        },
      );
      expect(response.status, list.join(',')).toBe(200);
      for (const [path, body] of Object.entries(await unpackSearchFiles(await response.arrayBuffer()))) {
        got.add(path);
        const text = searchableText(Buffer.from(body).toString('latin1'));
        for (const sentence of Object.values(crawler.forbidden))
          if (text.includes(sentence)) leaks.push(`${path}: ${sentence}`);
      }
    }
    console.log(`search files as ${crawler.name}: ${bundles.length} bundles, ${got.size} files, ${leaks.length} leaks`);
    expect(leaks, crawler.name).toEqual([]);
    expect([...got].sort(), crawler.name).toEqual(expected);
  }
});

/** What a reader's assistant gets from every MCP tool about the private package, with a personal token of theirs. */
async function askAboutPrivatePackage(crawler: Crawler): Promise<string> {
  const cookie = await crawler.cookie();
  const made = await fetch(`${portal.baseURL}/api/tokens`, {
    method: 'POST',
    headers: { cookie, origin: portal.baseURL, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'leak crawl', days: 1 }),
  });
  expect(made.status, await made.clone().text()).toBe(201);
  const { token } = (await made.json()) as { token: string };
  const client = new Client({ name: 'leak-crawl', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${portal.baseURL}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  const answers: unknown[] = [];
  const ask = async (name: string, args: Record<string, unknown>) =>
    answers.push(await client.callTool({ name, arguments: args }));
  for (const pkg of [canaryPackage, 'canary-kit', canarySection]) {
    for (const name of ['countHerons', 'retireHeron'])
      for (const version of [{}, { version: '1.0.0' }, { version: '1.1.0' }])
        await ask('get_symbol', { package: pkg, name, ...version });
    await ask('api_changes', { package: pkg, from: '1.0.0', to: '1.1.0' });
    await ask('latest_changelog', { package: pkg });
  }
  await ask('search_docs', { query: 'heron counts backwards', limit: 20 });
  await ask('list_sections', {});
  // What's new since well before the package's releases: every release and symbol change the reader may read.
  const longAgo = new Date(Date.now() - 3 * 365 * 86_400_000).toISOString().slice(0, 10);
  await ask('whats_new', { since: longAgo });
  for (const pkg of [canaryPackage, 'canary-kit', canarySection])
    await ask('whats_new', { since: longAgo, package: pkg });
  const base = `/docs/${canarySection}/`;
  for (const path of [
    base,
    `${base}1.0.0/`,
    `${base}1.0.0.md`,
    `${base}1.0.0/api/retireHeron/`,
    `${base}api/models.json`,
  ])
    await ask('read_page', { path });
  await client.close();
  return JSON.stringify(answers);
}

test('an assistant reads the private package’s releases, symbols and changes only for a reader of its unit', async () => {
  test.setTimeout(2 * 60_000);
  const sentences = [
    partnerCanaries.syncedReadme,
    partnerCanaries.olderReadme,
    partnerCanaries.symbolDoc,
    partnerCanaries.olderSymbolDoc,
  ];
  // A reader licensed for the unit gets every one: the tools do carry what the others must not get.
  const licensee = await askAboutPrivatePackage(organisations.layout);
  for (const sentence of sentences) expect(licensee, sentence).toContain(sentence);
  for (const crawler of [organisations.dash, organisations.ended]) {
    const answers = await askAboutPrivatePackage(crawler);
    expect(
      sentences.filter((sentence) => answers.includes(sentence)),
      crawler.name,
    ).toEqual([]);
  }
});

test('“what’s new” and its feeds show each reader only what they may read, and a feed token reads nothing but its feed', async () => {
  test.setTimeout(3 * 60_000);
  const longAgo = new Date(Date.now() - 3 * 365 * 86_400_000).toISOString().slice(0, 10);
  for (const crawler of crawlers) {
    const cookie = await crawler.cookie();
    const headers: Record<string, string> = cookie ? { cookie } : {};
    const bodies: string[] = [];
    for (const path of [
      '/api/whats-new',
      `/api/whats-new?since=${longAgo}`,
      `/api/whats-new?since=${longAgo}&package=${canarySection}`,
      `/account/whats-new.md?since=${longAgo}`,
      `/feeds/whats-new.atom?token=ndf_${'A'.repeat(43)}`,
      `/feeds/packages/canary-kit.atom?token=ndf_${'A'.repeat(43)}`,
    ]) {
      const response = await fetch(`${portal.baseURL}${path}`, { headers, redirect: 'manual' });
      if (crawler.units === null) expect([401, 404], `${crawler.name} ${path}`).toContain(response.status);
      bodies.push(await response.text());
    }
    if (crawler.units !== null) {
      // The reader's own feed, through a feed token made with their session.
      const made = await fetch(`${portal.baseURL}/api/feed-tokens`, {
        method: 'POST',
        headers: { ...headers, origin: portal.baseURL, 'content-type': 'application/json' },
        body: JSON.stringify({ feed: 'whats-new' }),
      });
      expect(made.status, await made.clone().text()).toBe(201);
      const { url, token } = (await made.json()) as { url: string; token: string };
      const feed = await fetch(url);
      expect(feed.status).toBe(200);
      bodies.push(await feed.text());
      // Nothing but its feed: the token opens no page, Markdown, API, search or package feed.
      for (const path of [
        '/api/whats-new',
        `/docs/${canarySection}/`,
        `/docs/${canarySection}.md`,
        '/api/search?q=heron',
        '/llms-full.txt',
      ])
        expect(
          (
            await fetch(`${portal.baseURL}${path}`, {
              headers: { authorization: `Bearer ${token}` },
              redirect: 'manual',
            })
          ).status,
          `${crawler.name}: a feed token on ${path}`,
        ).not.toBe(200);
      expect((await fetch(`${portal.baseURL}/feeds/packages/canary-kit.atom?token=${token}`)).status).toBe(404);
    }
    const all = bodies.join('\n');
    // A reader of the private package's unit does hear of its releases: what the others must not get.
    if (crawler.units !== null && !Object.values(crawler.forbidden).includes(partnerCanaries.symbolDoc))
      for (const sentence of [partnerCanaries.symbolDoc, partnerCanaries.olderSymbolDoc])
        expect(all, `${crawler.name} hears of the package's releases`).toContain(sentence);
    const leaks = Object.values(crawler.forbidden).filter((sentence) => all.includes(sentence));
    console.log(`what's new as ${crawler.name}: ${bodies.length} answers, ${all.length} bytes, ${leaks.length} leaks`);
    expect(leaks, crawler.name).toEqual([]);
  }
});

/** The page title without the site's, from a built page. */
function titleOf(html: string): string | null {
  const title = /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1];
  return title
    ? (title
        .split(' | ')[0]
        ?.replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#x27;|&#39;/g, "'") ?? null)
    : null;
}

test('what each reader can still learn about pages outside their groups: titles and paths, in these files', async () => {
  test.setTimeout(3 * 60_000);
  const pages = Object.values(manifest.entries).filter((entry) => entry.kind === 'page' && entry.access === 'private');
  const pageFacts = pages.map((entry) => ({
    entry,
    title: titleOf(readFileSync(join(siteDir, 'build', entry.file), 'utf8')),
    // As links and route keys carry it, without a trailing slash.
    path: entry.url.replace(/\/$/, ''),
  }));
  const report: Record<string, unknown> = {};
  for (const crawler of crawlers.slice(0, 2)) {
    const cookie = await crawler.cookie();
    const foreign = pageFacts.filter((page) => !(crawler.units ?? []).some((unit) => page.entry.units.includes(unit)));
    const revealing: { url: string; titles: number; paths: number }[] = [];
    for (const entry of Object.values(manifest.entries)) {
      const response = await rawRequest(portal.baseURL, {
        path: encodeURI(entry.url),
        headers: cookie ? { cookie, 'accept-encoding': 'gzip' } : { 'accept-encoding': 'gzip' },
      });
      if (response.status !== 200) continue;
      const text = searchableText(response.body);
      // A title counts where it names the page: a link or label in HTML, a title or label in
      // the route data. (A platform name such as "LG webOS" in a post's table is not the page.)
      const named = (title: string): boolean =>
        [`>${title}</a>`, `>${title}</span>`, `"title":"${title}"`, `"label":"${title}"`].some((form) =>
          text.includes(form),
        );
      const titles = foreign.filter((page) => page.title !== null && named(page.title)).length;
      const paths = foreign.filter((page) => text.includes(`"${page.path}`) || text.includes(`=${page.path}`)).length;
      if (titles + paths > 0) revealing.push({ url: entry.url, titles, paths });
    }
    const kind = (url: string): string =>
      /^\/assets\/js\/main\./.test(url)
        ? 'main bundle'
        : url.startsWith('/assets/')
          ? 'chunk'
          : url.endsWith('.xml') || url.endsWith('.txt')
            ? 'feed or text'
            : 'page HTML';
    const summary: Record<string, { files: number; examples: string[]; mostTitles: number; mostPaths: number }> = {};
    for (const item of revealing) {
      const group = (summary[kind(item.url)] ??= { files: 0, examples: [], mostTitles: 0, mostPaths: 0 });
      group.files += 1;
      if (group.examples.length < 3) group.examples.push(item.url);
      group.mostTitles = Math.max(group.mostTitles, item.titles);
      group.mostPaths = Math.max(group.mostPaths, item.paths);
    }
    report[crawler.name] = { pagesOutsideTheirGroups: foreign.length, files: revealing.length, byKind: summary };
    console.log(
      `exposure as ${crawler.name}: ${foreign.length} pages outside their groups; ${revealing.length} readable files name some of their titles or paths:\n` +
        Object.entries(summary)
          .map(
            ([name, item]) =>
              `  ${name}: ${item.files} file(s), up to ${item.mostTitles} titles and ${item.mostPaths} paths each (e.g. ${item.examples.join(', ')})`,
          )
          .join('\n'),
    );
    // What is documented as exposed (docs/security.md): titles and paths only, in these kinds of file.
    for (const name of Object.keys(summary)) expect(['main bundle', 'chunk', 'page HTML'], name).toContain(name);
  }
  recordFigure('exposure', report);
});
