import type { Locator, Page } from '@playwright/test';

import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { everyVariant, expect, hydrated, test } from './fixtures';
import { holdRequests, layoutShift, navbarLayout } from './layout-shift';

const DASH_PAGE = '/docs/player-manager-mono/packages/player-adapter-dash.js/';

/** The category page's package cards: a link per card, its title in an h2. */
const cards = (scope: Page | Locator) => scope.locator('article.col > a.card');

test.describe('category pages', () => {
  test('show package cards with the whole name, a description, the version and the platforms', async ({ page }) => {
    await page.goto('/docs/category/player-framework');
    await hydrated(page);
    const manager = cards(page).filter({
      has: page.getByRole('heading', { name: 'Player packages', exact: true }),
    });
    await expect(manager).toContainText('The player-manager-mono repository');
    await expect(manager).toContainText('v4.2.0');
    await expect(manager).toContainText('All five platforms');
    // No template glyph before a title, and no title cut short.
    const titles = cards(page).getByRole('heading', { level: 2 });
    for (const title of await titles.all()) {
      expect(await title.textContent()).toMatch(/^[\w.@/()-]/);
      expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    // The monorepo's packages follow in sections by kind, each card with its npm name and platforms.
    const section = (name: string) => page.getByRole('region', { name: new RegExp(`^${name}`) });
    await expect(cards(section('Players'))).toHaveCount(4);
    await expect(cards(section('Tracking'))).toHaveCount(12);
    const packages = section('Player adapters');
    await expect(cards(packages)).toHaveCount(7);
    const tizen = cards(packages).filter({ has: page.getByRole('heading', { name: 'Samsung Tizen adapter' }) });
    await expect(tizen).toContainText('@noriginmedia/player-adapter-tizen');
    await expect(tizen).toContainText('Samsung Tizen');
    await expect(tizen).not.toContainText('LG webOS');
  });

  test('show a single-repository family with its packages, not one lone card', async ({ page }) => {
    await page.goto('/docs/ui-toolkit');
    await hydrated(page);
    await expect(cards(page).filter({ hasText: 'ui-toolkit-mono' }).first()).toContainText('v2.3.1');
    await expect(cards(page.getByRole('region', { name: /^Packages/ }))).toHaveCount(7);
  });
});

test.describe('previous and next links', () => {
  test('name the package of the page they lead to', async ({ page }) => {
    await page.goto(DASH_PAGE);
    await hydrated(page);
    const pager = page.getByRole('navigation', { name: 'Docs pages' });
    await expect(pager.locator('.pagination-nav__link--prev .pagination-nav__label')).toHaveText('Shaka adapter');
    await expect(pager.locator('.pagination-nav__link--next .pagination-nav__label')).toHaveText('HLS adapter');
    await page.goto('/docs/category/player-framework');
    await expect(page.locator('.pagination-nav__link--next .pagination-nav__label')).toHaveText('Player packages');
  });
});

test.describe('navigation by what readers look for', () => {
  test('the sidebar names a package by what it is, and previous/next never lead to a repository page', async ({
    page,
  }) => {
    await page.goto(DASH_PAGE);
    await hydrated(page);
    const sidebar = page.getByRole('navigation', { name: 'Docs sidebar' });
    await expect(sidebar.getByRole('link', { name: 'DASH adapter', exact: true })).toBeVisible();
    // Its changelog sits in its own "About this package", not beside its pages.
    const dash = sidebar
      .locator('.menu__list-item')
      .filter({ has: page.getByRole('link', { name: 'DASH adapter', exact: true }) });
    await expect(dash.last().getByRole('button', { name: 'About this package', exact: true })).toBeVisible();
    // Pages whose next (or previous) page in the sidebar is a changelog, licence or the like.
    const pages = [
      DASH_PAGE,
      '/docs/layout-engine/',
      '/docs/Norigin-Spatial-Navigation/',
      '/docs/player-manager-mono/apps/playground-web/',
      '/docs/category/reference-and-demo-apps',
    ];
    for (const path of pages) {
      await page.goto(path);
      await hydrated(page);
      const next = page.locator('.pagination-nav__link--next');
      await expect(next, path).toBeVisible();
      for (const link of await page.locator('.pagination-nav__link').all()) {
        await expect(link, path).not.toHaveAttribute('href', /\/(LICENSE|CODE_OF_CONDUCT|CONTRIBUTING|CHANGELOG)$/);
        await expect(link, path).not.toContainText(/License|Code of Conduct|Contributing|Changelog/i);
      }
    }
    // A repository page is reached from its package's entry, not read in sequence.
    await page.goto('/docs/layout-engine/LICENSE');
    await hydrated(page);
    await expect(page.locator('.pagination-nav__link')).toHaveCount(0);
  });
});

test.describe('wide tables', () => {
  test('scroll in a labelled frame, by keyboard too, and say so while columns are hidden', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(DASH_PAGE);
    await hydrated(page);
    // Named by its column headings, so each wide table is its own landmark.
    const region = page.getByRole('region', { name: /^Table of Platform, .*, scrolls sideways$/ }).first();
    await expect(region).toBeVisible();
    const frame = region.locator('..');
    await expect(frame.getByText('Scroll →')).toBeVisible();
    await region.focus();
    for (let press = 0; press < 5; press++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    await region.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect(frame.getByText('Scroll →')).toBeHidden();
    // The page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});

test.describe('the navbar of a signed-in reader', () => {
  test('stays where it was painted first while the session check answers, on a desktop and a phone', async ({
    page,
  }) => {
    for (const [width, path] of [
      [1280, '/'],
      [1280, DASH_PAGE],
      [390, '/'],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      const scripts = await holdRequests(page, '**/assets/js/**');
      const session = await holdRequests(page, '**/api/session');
      await page.goto(path, { waitUntil: 'commit' });
      await page.waitForFunction(() => {
        const navbar = document.querySelector('.navbar');
        return navbar !== null && getComputedStyle(navbar).position === 'sticky';
      });
      // Text is laid out in its final font (the fallback's layout in the font's short block period is never seen).
      await page.evaluate(() => document.fonts.ready);
      const firstPaint = await navbarLayout(page);
      await scripts.release();
      await hydrated(page);
      // Hydrated, the session still unanswered: the item keeps the signed-in shape the hint cookie promised.
      expect(await navbarLayout(page), `${path} at ${width} px, before the answer`).toEqual(firstPaint);
      await session.release();
      // The answer has arrived when the item is there (on a phone it lives in the menu).
      await expect(page.locator('button[title^="Logout ("]').first()).toBeAttached();
      expect(await navbarLayout(page), `${path} at ${width} px, after the answer`).toEqual(firstPaint);
    }
  });
});

test("nothing moves sideways when the window's scrollbar comes or goes", async ({ page, playwright, baseURL }) => {
  // Playwright hides scrollbars in headless Chromium; a desktop browser shows them, and they take room.
  const browser = await playwright.chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
    ignoreDefaultArgs: ['--hide-scrollbars'],
  });
  try {
    const context = await browser.newContext({
      baseURL,
      storageState: await page.context().storageState(),
      viewport: { width: 1280, height: 800 },
    });
    const reader = await context.newPage();
    for (const path of ['/blog/welcome', DASH_PAGE]) {
      await reader.setViewportSize({ width: 1280, height: 800 });
      await reader.goto(path);
      await hydrated(reader);
      await reader.evaluate(() => document.fonts.ready);
      // Taller than the window: this browser's scrollbar takes room, or the test shows nothing.
      expect(
        await reader.evaluate(() => window.innerWidth - document.documentElement.clientWidth),
        path,
      ).toBeGreaterThan(0);
      const layout = async () => ({
        ...(await navbarLayout(reader)),
        content: await reader.evaluate(() => {
          const box = document.querySelector('main .container')?.getBoundingClientRect();
          return box ? `${Math.round(box.x)},${Math.round(box.width)}` : 'missing';
        }),
      });
      const withScrollbar = await layout();
      // A window taller than the page needs no scrollbar: what a page looks like when it paints before the rest of its HTML has come.
      const height = await reader.evaluate(() => document.documentElement.scrollHeight);
      await reader.setViewportSize({ width: 1280, height: height + 200 });
      expect(await layout(), path).toEqual(withScrollbar);
    }
  } finally {
    await browser.close();
  }
});

test("the home page's words stay put while the code beside them grows", async ({ page }) => {
  // A page can paint before the rest of its HTML has come, with part of the quick start's
  // code: the words beside it must not move when the rest arrives.
  await page.setViewportSize({ width: 1350, height: 940 });
  await page.goto('/');
  await hydrated(page);
  await page.evaluate(() => document.fonts.ready);
  const words = page.locator('main h1').first();
  const before = await words.boundingBox();
  const grown = await page.evaluate(() => {
    const code = document.querySelector('#quick-start')?.closest('section');
    const box = code?.getBoundingClientRect();
    code?.append(Object.assign(document.createElement('div'), { style: 'height: 200px' }));
    return code ? code.getBoundingClientRect().height - (box?.height ?? 0) : 0;
  });
  expect(grown).toBe(200);
  expect(await words.boundingBox()).toEqual(before);
});

test('no page template scrolls sideways at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/', DASH_PAGE, '/docs/category/player-framework', '/blog', '/blog/mdx-blog-post', '/nope']) {
    await page.goto(path);
    await hydrated(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

test('no page template moves while it loads, at either width', async ({ page }) => {
  const templates = [
    '/',
    DASH_PAGE,
    '/docs/category/player-framework',
    '/blog',
    '/blog/mdx-blog-post',
    '/account',
    // A deep unknown path: the not-found page fills the path in once it runs.
    '/docs/player-manager-mono/packages/player-adapter-shaka/guides/an-old-page-that-moved-away',
  ];
  const viewports = [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ];
  // `npm test` meets each template at one width, the widths by turn; E2E_FULL at both.
  for (const [index, viewport] of viewports.entries()) {
    await page.setViewportSize(viewport);
    for (const path of templates.filter((_, at) => everyVariant || at % viewports.length === index)) {
      await page.goto(path);
      await hydrated(page);
      await page.evaluate(() => document.fonts.ready);
      expect(await layoutShift(page), `${path} at ${viewport.width} px`).toBe(0);
    }
  }
});

test('the blog list has its own heading, and the footer no template credit', async ({ page }) => {
  await page.goto('/blog');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog');
  await expect(page.getByRole('contentinfo')).toContainText('Copyright © 2025');
  await expect(page.getByRole('contentinfo')).not.toContainText('Docusaurus');
});

test('text is set in the self-hosted Inter and code in JetBrains Mono, with no font service asked', async ({
  page,
}) => {
  const fontRequests: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'font') fontRequests.push(new URL(request.url()).href);
  });
  await page.goto(DASH_PAGE);
  await hydrated(page);
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Inter Variable"/);
  expect(
    await page
      .locator('article pre code')
      .first()
      .evaluate((code) => getComputedStyle(code).fontFamily),
  ).toMatch(/^"JetBrains Mono Variable"/);
  expect(await page.evaluate(() => document.fonts.check('16px "Inter Variable"'))).toBe(true);
  expect(fontRequests.length).toBeGreaterThan(0);
  for (const url of fontRequests) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/fonts\//);
});

/** The system (not self-hosted) fonts the browser drew this page's text in, with the elements that use them. */
async function systemFontsOf(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  // Every element with text of its own, form controls' labels included.
  await page.evaluate(() => {
    for (const element of Array.from(document.body.querySelectorAll('*')))
      if (
        Array.from(element.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) ||
        (element instanceof HTMLInputElement && (element.value || element.placeholder))
      )
        element.setAttribute('data-font-probe', '');
  });
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '[data-font-probe]' });
  const found = new Set<string>();
  for (const nodeId of nodeIds) {
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    const system = fonts.filter((font) => !font.isCustomFont && font.glyphCount > 0);
    if (system.length === 0) continue;
    const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
    for (const font of system) found.add(`${font.familyName}: ${outerHTML.slice(0, 80)}`);
  }
  await cdp.detach();
  return [...found];
}

test.describe('the typeface', () => {
  // The refusal page answers 403, which Chromium logs.
  test.use({ allowedConsoleErrors: /the server responded with a status of 403/ });
  test('no text of a signed-in reader’s page templates is drawn in a system font, buttons and fields included', async ({
    page,
  }) => {
    // The administration page refuses this reader: the refusal page.
    for (const path of ['/', DASH_PAGE, '/blog/mdx-blog-post', '/account', '/admin', '/nope']) {
      await page.goto(path);
      await hydrated(page);
      await page.evaluate(() => document.fonts.ready);
      expect(await systemFontsOf(page), path).toEqual([]);
    }
  });

  test.describe('signed out', () => {
    test.use({ storageState: { cookies: [], origins: [] } });
    test('nor on the sign-in page, its buttons and fields included', async ({ page }) => {
      await page.goto('/login');
      await hydrated(page);
      await page.getByLabel('E-mail').fill('someone@example.com');
      await page.evaluate(() => document.fonts.ready);
      expect(await systemFontsOf(page)).toEqual([]);
    });
  });
});

// The word-wrap button must appear for a block too wide for the phone, and wrap it.
test('a code block too wide for a phone offers word wrap, and wraps', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(DASH_PAGE);
  await hydrated(page);
  const wide = page
    .locator('div[class*="codeBlockContent"]')
    .filter({ has: page.getByRole('button', { name: 'Toggle word wrap' }) })
    .first();
  await expect(wide).toBeVisible();
  const code = wide.locator('pre');
  const overflow = () => code.evaluate((pre) => pre.scrollWidth - pre.clientWidth);
  expect(await overflow()).toBeGreaterThan(0);
  await wide.getByRole('button', { name: 'Toggle word wrap' }).click();
  await expect.poll(overflow).toBeLessThanOrEqual(0);
});
