import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Page } from '@playwright/test';
import { isPublicRoute, REQUEST_ACCESS } from '@portal/access';
import { WORDS_FILE } from '@portal/search';

import { expect, hydrated, test } from './fixtures';
import { decompress, readBundle, type BundleFiles } from './pagefind-bundle';
import { demoReader, emulatorReaders } from './readers';

const docsDir = fileURLToPath(new URL('../site/docs/', import.meta.url));
const buildDir = fileURLToPath(new URL('../site/build/', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.mdx?$/.test(file))
    .map((file) => join(dir, file));
}

const allMarkdown = (): string[] => [
  ...markdownFiles(docsDir),
  ...markdownFiles(fileURLToPath(new URL('../site/blog/', import.meta.url))),
];

/** A word of a private doc that no other doc or post contains, with that doc's title and path. */
function uniqueWordOfAPrivateDoc(): { word: string; title: string; path: string } {
  const files = allMarkdown();
  const texts = new Map(files.map((file) => [file, readFileSync(file, 'utf8').toLowerCase()]));
  const candidates = markdownFiles(docsDir).filter(
    (file) => !file.includes('Norigin-Spatial-Navigation') && !file.endsWith('intro.md'),
  );
  for (const file of candidates) {
    // Prose only: no front matter, code, tables, headings or images.
    const source = readFileSync(file, 'utf8');
    const prose = source
      .replace(/^---[\s\S]*?---/, '')
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`]*`/g, '')
      .split('\n')
      .filter((line) => !/^\s*(\||#|<|:::|!\[)/.test(line))
      .join('\n');
    // The search engine stems words, so no other page may share even the first seven letters.
    const word = [...new Set(prose.match(/\b[a-z]{8,}\b/g) ?? [])].find((candidate) =>
      files.every((other) => other === file || !texts.get(other)?.includes(candidate.slice(0, 7))),
    );
    if (!word) continue;
    const title = /^title:\s*(.+)$/m.exec(source)?.[1]?.replace(/^['"]|['"]$/g, '') ?? '';
    const id = file.slice(docsDir.length).replace(/\.mdx?$/, '');
    const path = id.endsWith('README') ? `/docs/${id.slice(0, -'README'.length)}` : `/docs/${id}`;
    return { word, title, path };
  }
  throw new Error('no private doc has a word of its own');
}

const searchDir = join(buildDir, 'search');

/** The text of the build's public HTML pages, from disk: what anonymous visitors may read. */
function publicPageText(): string {
  const texts: string[] = [];
  for (const file of readdirSync(buildDir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.html') || file.startsWith(`search${sep}`)) continue;
    const route =
      '/' +
      file
        .split(sep)
        .join('/')
        .replace(/(^|\/)index\.html$/, '$1')
        .replace(/\.html$/, '');
    if (!isPublicRoute(route)) continue;
    texts.push(
      readFileSync(join(buildDir, file), 'utf8')
        .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
        .replace(/<[^>]*>/g, ' '),
    );
  }
  return texts.join('\n');
}

/** A canary's length: the letters a word keeps when the index stems it ("librari" of "library"). */
const CANARY = 6;

/**
 * The private pages of the build's search indexes, read from disk: their URLs, and their
 * canaries, the first letters of their words that appear nowhere in the public pages' text,
 * not even inside a longer word, in a table's run-together cells or with stemming's y→i.
 * Each canary comes with the page it was taken from.
 */
async function privatePages(): Promise<{ urls: string[]; canaries: Map<string, string> }> {
  const letters = publicPageText()
    .toLowerCase()
    .replace(/[^a-z]+/g, '');
  const lettersWithI = letters.replace(/y/g, 'i');
  const known = new Map<string, boolean>();
  const isPublicText = (part: string): boolean => {
    let answer = known.get(part);
    if (answer === undefined) known.set(part, (answer = letters.includes(part) || lettersWithI.includes(part)));
    return answer;
  };
  const urls: string[] = [];
  const canaries = new Map<string, string>();
  for (const unit of readdirSync(searchDir)) {
    // A unit with no searchable page has no index (the administration pages, today); a
    // shelf's pages are each in their own unit's bundle too.
    if (unit === 'public' || unit.startsWith('shelf-') || !existsSync(join(searchDir, unit, 'pagefind-entry.json')))
      continue;
    const bundle = await readBundle((path) => readFile(join(searchDir, unit, path)));
    for (const fragment of bundle.fragments) {
      urls.push(fragment.url);
      for (const word of fragment.content.toLowerCase().match(/[a-z]{7,}/g) ?? []) {
        const canary = word.slice(0, CANARY);
        if (!isPublicText(canary)) canaries.set(canary, fragment.url);
      }
    }
  }
  return { urls, canaries };
}

/** Where a private page's URL is named in a text: the path as a whole, any case, slash or not. */
const namingUrl = (url: string): RegExp =>
  new RegExp(`${url.replace(/\/$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'i');

/**
 * What leaked from `privateOnes` into a bundle: a fragment of a private page, a private URL
 * named in any file, a canary word among the indexed words (`bundle.texts`; the scripts'
 * own identifiers are not words of a page).
 */
function leaks(
  bundle: BundleFiles,
  otherFiles: ReadonlyMap<string, string>,
  privateOnes: { urls: string[]; canaries: Map<string, string> },
): string[] {
  const found: string[] = [];
  for (const fragment of bundle.fragments)
    if (!isPublicRoute(fragment.url)) found.push(`a fragment of the private page ${fragment.url}`);
  const named = privateOnes.urls.map((url) => [url, namingUrl(url)] as const);
  for (const [path, text] of [...bundle.texts, ...otherFiles])
    for (const [url, pattern] of named) if (pattern.test(text)) found.push(`${path} names ${url}`);
  for (const [path, text] of bundle.texts) {
    for (const word of new Set(text.toLowerCase().match(new RegExp(`[a-z]{${CANARY},}`, 'g')))) {
      const page = privateOnes.canaries.get(word.slice(0, CANARY));
      if (page) found.push(`${path} has "${word}" of ${page}`);
    }
  }
  return found;
}

async function signIn(page: Page, baseURL: string): Promise<void> {
  const idToken = await emulatorReaders.signIn(demoReader.email, demoReader.password);
  const response = await page.request.post('/api/session', { data: { idToken }, headers: { origin: baseURL } });
  expect(response.status()).toBe(200);
}

async function openSearch(page: Page, how: 'shortcut' | 'slash' | 'click' = 'shortcut'): Promise<void> {
  await hydrated(page);
  if (how === 'click')
    await page
      .getByRole('button', { name: /^Search/ })
      .first()
      .click();
  else if (how === 'slash') await page.keyboard.press('/');
  else await page.keyboard.press('Control+k');
  await expect(page.getByRole('dialog', { name: 'Search the documentation' })).toBeVisible();
}

const results = (page: Page) => page.getByRole('list', { name: 'Search results' });

test.describe('a signed-in reader', () => {
  test('finds a private page by a word only it has, and opens it with the word highlighted', async ({
    page,
    baseURL,
  }) => {
    await signIn(page, String(baseURL));
    const { word, title, path } = uniqueWordOfAPrivateDoc();
    await page.goto('/docs/');
    await openSearch(page);
    await page.getByRole('searchbox', { name: 'Search' }).fill(word);
    const hit = results(page).getByRole('link').filter({ hasText: title }).first();
    await expect(hit).toBeVisible();
    await expect(hit.locator('mark').first()).toHaveText(new RegExp(word, 'i'));
    await hit.click();
    await expect(page).toHaveURL(new RegExp(`${path.replace(/[.]/g, '\\.')}\\?highlight=${word}$`));
    await expect(
      page
        .locator('article mark')
        .filter({ hasText: new RegExp(`^${word}$`, 'i') })
        .first(),
    ).toBeVisible();
  });

  test('finds the DASH adapter by "dash.js", API names in code, and prefixes as they type', async ({
    page,
    baseURL,
  }) => {
    await signIn(page, String(baseURL));
    await page.goto('/');
    await openSearch(page, 'click');
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill('dash.js');
    await expect(results(page).getByRole('link').filter({ hasText: 'DASH adapter' }).first()).toBeVisible();
    await box.fill('usefocusable');
    await expect(results(page).getByRole('link').first()).toBeVisible();
    await box.fill('virtualis');
    await expect(results(page).getByRole('link').filter({ hasText: 'Layout Engine' }).first()).toBeVisible();
    await box.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test.describe('results that explain themselves', () => {
  test('says where each result sits and shows code in a snippet as text, not markup', async ({ page, baseURL }) => {
    await signIn(page, String(baseURL));
    await page.goto('/docs/');
    await openSearch(page);
    await page.getByRole('searchbox', { name: 'Search' }).fill('PlayerProvider');
    const hit = results(page).locator(':scope > li > a').first();
    await expect(hit).toBeVisible();
    // The docs' own breadcrumb above the page: its section, then its package.
    await expect(hit.locator('span').first()).toHaveText(/\S › \S/);
    for (const excerpt of await results(page).locator(':scope > li > a > span:last-child').allTextContents())
      expect(excerpt).not.toMatch(/[<>{}]/);
    await expect(hit.locator('mark').first()).toHaveText(/PlayerProvider/i);
  });

  test('forgives one typo in a longer word and says what it searched instead', async ({ page, baseURL }) => {
    await signIn(page, String(baseURL));
    await page.goto('/docs/');
    await openSearch(page);
    await page.getByRole('searchbox', { name: 'Search' }).fill('shaak adapter');
    await expect(page.getByRole('dialog').getByRole('status')).toHaveText('Showing results for “shaka adapter”.');
    await expect(results(page).getByRole('link').filter({ hasText: 'Shaka adapter' }).first()).toBeVisible();
  });

  test('walks the results with the arrow keys and opens one with Enter', async ({ page, baseURL }) => {
    await signIn(page, String(baseURL));
    await page.goto('/docs/');
    await openSearch(page);
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill('tizen');
    await expect(results(page)).toHaveAttribute('data-answered', 'tizen');
    const links = results(page).getByRole('link');
    expect(await links.count()).toBeGreaterThan(2);
    await box.press('ArrowDown');
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press('End');
    await expect(links.last()).toBeFocused();
    await page.keyboard.press('Home');
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(box).toBeFocused();
    await box.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const second = new URL(String(await links.nth(1).getAttribute('href')), String(baseURL)).pathname;
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect.poll(() => new URL(page.url()).pathname).toBe(second);
  });
});

test.describe('a query that matches nothing', () => {
  test('offers the nearest sections, a place to start and whom to ask for access', async ({ page, baseURL }) => {
    await signIn(page, String(baseURL));
    await page.goto('/docs/');
    await openSearch(page);
    const dialog = page.getByRole('dialog');
    const box = dialog.getByRole('searchbox', { name: 'Search' });
    // One word matches pages, the other nothing: the sections of the first are offered.
    await box.fill('tizen xyzzyqq');
    await expect(dialog.getByRole('status')).toHaveText('No results for “tizen xyzzyqq”.');
    const nearby = dialog.getByRole('list', { name: 'Closest sections' });
    await expect(nearby.getByRole('link').first()).toBeVisible();
    await expect(dialog.getByRole('link', { name: `Ask ${REQUEST_ACCESS.label} for access` })).toHaveAttribute(
      'href',
      new RegExp(`^mailto:${REQUEST_ACCESS.email}\\?`),
    );
    // The offers are reached with the arrows too.
    await box.press('ArrowDown');
    await expect(nearby.getByRole('link').first()).toBeFocused();
    // Nonsense is near nothing: the start of the docs is offered instead.
    await box.fill('xyzzyqq');
    await expect(dialog.getByRole('status')).toHaveText('No results for “xyzzyqq”.');
    await expect(
      dialog.getByRole('list', { name: 'Start from' }).getByRole('link', { name: 'Getting Started' }),
    ).toHaveAttribute('href', '/docs/');
  });

  test('gets no results, not pages that share its first letter', async ({ page, baseURL }) => {
    // Pagefind cuts a word it cannot find down to a prefix that it can ("xyzzyqq" to "x",
    // which the Release Flow guideline has in "## x.y.z"); the portal drops such results.
    await signIn(page, String(baseURL));
    await page.goto('/docs/');
    await openSearch(page);
    const box = page.getByRole('searchbox', { name: 'Search' });
    for (const nonsense of ['xyzzyqq', 'zqxjkw player']) {
      await box.fill(nonsense);
      await expect(results(page)).toHaveAttribute('data-answered', nonsense);
      await expect(results(page).getByRole('link')).toHaveCount(0);
      await expect(page.getByRole('dialog').getByRole('status')).toHaveText(`No results for “${nonsense}”.`);
    }
    // A word the guideline has still finds it.
    await box.fill('updateInternalDependencies');
    await expect(results(page).getByRole('link').filter({ hasText: 'Release Flow' }).first()).toBeVisible();
  });
});

test.describe('a signed-out reader', () => {
  test('finds public pages only, and is told that signing in searches the rest', async ({ page }) => {
    await page.goto('/docs/');
    await openSearch(page, 'slash');
    await expect(page.getByRole('dialog').getByText('You are searching the public pages only.')).toBeVisible();
    await expect(page.getByRole('dialog').getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login?next=%2Fdocs%2F',
    );
    await page.getByRole('searchbox', { name: 'Search' }).fill('spatial navigation');
    const links = results(page).locator('a');
    await expect(links.first()).toBeVisible();
    const hrefs = await links.evaluateAll((anchors) =>
      anchors.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
    );
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href, href).toMatch(/^\/docs\/(Norigin-Spatial-Navigation\/.*)?$/i);
    // A word only a private page has never leads to that page (parts of it may match public text).
    const secret = uniqueWordOfAPrivateDoc();
    await page.getByRole('searchbox', { name: 'Search' }).fill(secret.word);
    // Wait for the answer to this very query, not the previous one's list.
    await expect(results(page)).toHaveAttribute('data-answered', secret.word);
    const afterSecret = await links.evaluateAll((anchors) =>
      anchors.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
    );
    for (const href of afterSecret) expect(href, href).toMatch(/^\/docs\/(Norigin-Spatial-Navigation\/.*)?$/i);
    expect(afterSecret).not.toContain(secret.path);
  });

  test('is refused every file of the indexes that cover private pages', async ({ request }) => {
    for (const unit of ['shelf-partner', 'shelf-staff', 'internal', 'layout']) {
      const files = readdirSync(join(buildDir, 'search', unit), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
        .map((entry) => '/' + join(entry.parentPath, entry.name).slice(buildDir.length));
      expect(files.length, unit).toBeGreaterThan(10);
      for (const path of files) {
        const response = await request.get(path);
        expect(response.status(), path).toBe(401);
        expect(await response.body(), path).toHaveLength(0);
      }
    }
  });

  test('reads every file of the public search bundle, and none names a private page or holds its words', async ({
    request,
  }) => {
    // Every private bundle is read from disk (one per unit) and every public file through the gate.
    test.setTimeout(3 * 60_000);
    const privateOnes = await privatePages();
    // Enough to mean something: the build indexes dozens of private pages.
    expect(privateOnes.urls.length).toBeGreaterThan(10);
    expect(privateOnes.canaries.size).toBeGreaterThan(100);
    const served = new Map<string, Buffer>();
    const get = async (path: string): Promise<Buffer> => {
      const response = await request.get(`/search/public/${path}`);
      expect(response.status(), path).toBe(200);
      const body = await response.body();
      served.set(path, body);
      return body;
    };
    // Every file the entry names, through the metadata: fragments, index chunks, filters.
    const bundle = await readBundle(get);
    expect(bundle.fragments.length).toBeGreaterThan(3);
    expect(bundle.fragments.map((fragment) => fragment.url)).toContain('/docs/');
    // And every other file of the bundle on disk (the scripts, the WebAssembly), as served.
    const onDisk = readdirSync(join(searchDir, 'public'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
      .map((entry) => relative(join(searchDir, 'public'), join(entry.parentPath, entry.name)).split(sep).join('/'));
    for (const path of onDisk) if (!served.has(path)) await get(path);
    expect([...served.keys()].sort()).toEqual(expect.arrayContaining(onDisk.sort()));
    // The word list for typo tolerance is words of pages: checked for canaries like the index.
    bundle.texts.set(WORDS_FILE, (served.get(WORDS_FILE) ?? (await get(WORDS_FILE))).toString('utf8'));
    const otherFiles = new Map(
      [...served]
        .filter(([path]) => !bundle.texts.has(path))
        .map(([path, body]) => [path, decompress(body).toString('latin1')]),
    );
    expect(leaks(bundle, otherFiles, privateOnes)).toEqual([]);
  });
});
