import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, test } from '@playwright/test';

import { freePort } from '../free-port';
import { startSession } from '../../scripts/portal-client.mjs';
import { demoReader, emulatorReaders } from '../readers';
import { full, rawRequest, searchableText } from './lib';
import { recordFigure } from './record';

/*
 * Builds a copy of the site with unique canary sentences planted in private pages (body,
 * heading, code block, an imported image and its alt text, a blog post), serves it with
 * the gate server, and fetches every file of that build anonymously under several
 * spellings of its path. No answer that carries content may contain a canary.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const work = join(root, 'e2e', '.canary');
const siteDir = join(work, 'site');
const run = randomBytes(4).toString('hex');
const canary = (where: string): string => `Canary ${where} ${run} the heron counts backwards`;
const canaries = {
  body: canary('body'),
  heading: canary('heading'),
  code: canary('code'),
  alt: canary('alt'),
  image: canary('image'),
  sibling: canary('sibling'),
  blog: canary('blog'),
  package: canary('package'),
};

let server: ChildProcess | undefined;
let baseURL = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(5 * 60_000);
  rmSync(work, { recursive: true, force: true });
  const source = join(root, 'site');
  cpSync(source, siteDir, {
    recursive: true,
    filter: (path) => !/[/\\](node_modules|build|\.docusaurus)([/\\]|$)/.test(path.slice(source.length)),
  });
  const docs = join(siteDir, 'docs');
  appendFileSync(
    join(docs, 'layout-engine', 'README.md'),
    `\n## ${canaries.heading}\n\n${canaries.body}\n\n\`\`\`ts\nconst note = '${canaries.code}';\n\`\`\`\n\n![${canaries.alt}](./canary-diagram.svg)\n`,
  );
  // Larger than the bundler's 10 kB inlining limit, so it becomes a file of its own under /assets/images/.
  writeFileSync(
    join(docs, 'layout-engine', 'canary-diagram.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="40"><text x="4" y="24">${canaries.image}</text><!-- ${'padding '.repeat(2000)}--></svg>\n`,
  );
  appendFileSync(join(docs, 'Spat-Nav', 'Detailed_README_SpatNav.md'), `\n${canaries.sibling}\n`);
  appendFileSync(
    join(docs, 'player-manager-mono', 'packages', 'player-adapter-dash.js', 'README.md'),
    `\n${canaries.package}\n`,
  );
  const welcome = readdirSync(join(siteDir, 'blog')).find((name) => name.endsWith('-welcome'));
  appendFileSync(join(siteDir, 'blog', welcome ?? '', 'index.md'), `\n${canaries.blog}\n`);

  const docusaurus = join(root, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');
  const build = spawnSync(process.execPath, [docusaurus, 'build'], { cwd: siteDir, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`canary build failed:\n${build.stdout}\n${build.stderr}`);
  const prepare = spawnSync(
    process.execPath,
    [join(root, 'server', 'dist', 'manifest', 'prepare.js'), join(siteDir, 'build'), join(siteDir, '.docusaurus')],
    { encoding: 'utf8' },
  );
  if (prepare.status !== 0) throw new Error(`preparing the canary build failed:\n${prepare.stderr}`);

  const port = freePort();
  baseURL = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [join(root, 'server', 'dist', 'server.js')], {
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      SITE_DIR: join(siteDir, 'build'),
      FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${process.env.E2E_EMULATOR_PORT}`,
      SESSION_SECRET: 'canary-secret-for-this-gate-server-only',
      SESSION_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
    },
  });
  await expect(async () => expect((await fetch(`${baseURL}/healthz`)).ok).toBe(true)).toPass({ timeout: 30_000 });
});

test.afterAll(() => {
  server?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

test('the canaries are in the build, and a signed-in reader reads them', async () => {
  const files = filesOf(join(siteDir, 'build')).filter((file) => !/\.(br|gz)$/.test(file));
  const texts = files.map((file) => searchableText(readFileSync(file, 'latin1')));
  // The private search index holds the canaries (so the crawl below would see a leak of
  // it); the public one holds none.
  const inSearch = (dir: string): string[] =>
    files
      .filter((file) => file.includes(`${join('build', 'search', dir)}/`))
      .map((file) => searchableText(readFileSync(file, 'latin1')));
  expect(inSearch('all').some((text) => text.includes(canaries.body))).toBe(true);
  for (const sentence of Object.values(canaries)) {
    expect(inSearch('public').some((text) => text.includes(sentence))).toBe(false);
  }
  for (const [where, sentence] of Object.entries(canaries)) {
    expect(
      texts.some((text) => text.includes(sentence)),
      where,
    ).toBe(true);
  }
  const cookie = await startSession(baseURL, await emulatorReaders.signIn(demoReader.email, demoReader.password));
  const page = await (await fetch(`${baseURL}/docs/layout-engine/`, { headers: { cookie } })).text();
  for (const sentence of [canaries.heading, canaries.body, canaries.code, canaries.alt])
    expect(page).toContain(sentence);
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

test('no anonymous request for any file of the build, however spelled, shows a canary', async () => {
  test.setTimeout(full ? 10 * 60_000 : 3 * 60_000);
  const manifest = JSON.parse(readFileSync(join(siteDir, 'build', 'portal-manifest.json'), 'utf8')) as {
    entries: Record<string, { url: string; access: string }>;
  };
  const sentences = Object.values(canaries);
  const encodings = full ? ['br, gzip', 'gzip', 'identity'] : ['br, gzip'];
  let tried = 0;
  const leaks: string[] = [];
  const wrongAnswers: string[] = [];
  const statuses = new Map<number, number>();
  for (const entry of Object.values(manifest.entries)) {
    const paths = spellings(encodeURI(entry.url));
    await Promise.all(
      paths.flatMap((path) =>
        encodings.map(async (encoding) => {
          const response = await rawRequest(baseURL, { path, headers: { 'accept-encoding': encoding } });
          tried += 1;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const text = searchableText(response.body);
          if ([200, 203, 206, 304].includes(response.status) && sentences.some((sentence) => text.includes(sentence))) {
            leaks.push(`${response.status} ${path}`);
          }
          if (response.status >= 500) wrongAnswers.push(`${response.status} ${path}`);
          if (path === encodeURI(entry.url) && entry.access === 'private' && ![302, 401].includes(response.status)) {
            wrongAnswers.push(`${response.status} ${path}`);
          }
        }),
      ),
    );
  }
  const byStatus = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
  console.log(
    `leak crawl: ${tried} anonymous requests over ${Object.keys(manifest.entries).length} files, ${leaks.length} leaks, answers ${JSON.stringify(byStatus)}`,
  );
  recordFigure('leak_crawl', {
    requests: tried,
    files: Object.keys(manifest.entries).length,
    leaks: leaks.length,
    statuses: byStatus,
  });
  expect(tried).toBeGreaterThan(full ? 10_000 : 2000);
  expect(leaks).toEqual([]);
  expect(wrongAnswers).toEqual([]);
});
