import type { Browser, Page } from '@playwright/test';

import { axe, everyVariant, expect, hydrated, test } from './fixtures';
import { adminReader, signedInContext } from './readers';

/**
 * axe-core on every page template, in both colour modes, at a desktop and a phone width:
 * no violation of impact "serious" or "critical" (colour contrast, names, roles, landmarks,
 * lists, scrollable regions…). This project runs signed in as staff; the login page's form
 * and the home page a visitor sees are checked signed out, in a context of their own.
 */

type Template = {
  name: string;
  path: string;
  signedOut?: boolean;
  /** Checked signed in as the demo administrator, in a context of its own. */
  admin?: boolean;
  /** Brings the page to the state the template is about (e.g. the search dialog open). */
  prepare?: (page: Page) => Promise<void>;
};

const templates: Template[] = [
  { name: 'home', path: '/' },
  { name: 'home, signed out', path: '/', signedOut: true },
  { name: 'login', path: '/login?next=%2Fdocs%2Flayout-engine%2F', signedOut: true },
  { name: 'doc', path: '/docs/player-manager-mono/packages/player-adapter-dash.js/' },
  { name: 'category', path: '/docs/category/player-framework' },
  { name: 'blog list', path: '/blog' },
  { name: 'blog post', path: '/blog/mdx-blog-post' },
  { name: 'not found', path: '/docs/no-such-package/' },
  {
    name: 'organisations (administration)',
    path: '/admin/organisations',
    admin: true,
    prepare: async (page) => {
      await expect(page.getByRole('table', { name: 'Organisations' })).toBeVisible();
    },
  },
  {
    name: 'who reads a package (administration)',
    path: '/admin/organisations?tab=packages',
    admin: true,
    prepare: async (page) => {
      await page.getByRole('combobox', { name: /^Package/ }).selectOption({ label: 'Layout Engine' });
      await expect(page.getByRole('region', { name: 'Who reads Layout Engine' })).toBeVisible();
    },
  },
  // The other administration pages, each once its answer is shown (the readers page is checked with a row menu open in admin.e2e.ts).
  ...(
    [
      ['access requests', '/admin/requests', 'Loading the requests…'],
      ['insights', '/admin/insights', 'Loading the insights…'],
      ['audit trail', '/admin/audit', 'Loading the trail…'],
      ['tokens', '/admin/tokens', 'Loading the tokens…'],
      ['sources', '/admin/sources', 'Loading the package sources…'],
    ] as const
  ).map(([name, path, loading]): Template => ({
    name: `${name} (administration)`,
    path,
    admin: true,
    prepare: async (page) => {
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText(loading)).toHaveCount(0);
    },
  })),
  {
    // With a token, so that its row and Revoke button are checked too.
    name: 'account',
    path: '/account',
    prepare: async (page) => {
      const made = await page.request.post('/api/tokens', {
        data: { name: 'axe check', days: 1 },
        headers: { origin: new URL(page.url()).origin },
      });
      expect(made.status()).toBe(201);
      await page.reload();
      await hydrated(page);
      await expect(page.getByRole('button', { name: 'Revoke axe check' }).first()).toBeVisible();
    },
  },
  { name: 'use with your assistant', path: '/account/assistant' },
  {
    // From a date before the open package's 3.x releases: its cards, symbols and signatures.
    name: 'what’s new for you',
    path: '/account/whats-new',
    prepare: async (page) => {
      await hydrated(page);
      await page.getByLabel('Since').fill('2026-08-01');
      // A staff reader's first answer works out the facts of every page of the build: it may take a while.
      await expect(page.getByRole('region', { name: 'Norigin Spatial Navigation' })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByRole('heading', { name: 'Mail and ordering' })).toBeVisible();
    },
  },
  {
    // The avatar menu on a wide screen, the phone menu (where its items live) on a narrow one.
    name: 'account menu open',
    path: '/docs/',
    prepare: async (page) => {
      const navbar = page.getByRole('navigation', { name: 'Main' });
      if ((page.viewportSize()?.width ?? 0) > 996) {
        await navbar.getByRole('button', { name: /^Account menu/ }).click();
        await expect(navbar.getByRole('button', { name: /^Logout/ })).toBeVisible();
      } else {
        await page.getByRole('button', { name: /Toggle navigation bar/ }).click();
        await expect(page.locator('.navbar-sidebar')).toBeVisible();
      }
    },
  },
  {
    name: 'search dialog',
    path: '/docs/',
    prepare: async (page) => {
      await page.keyboard.press('Control+k');
      const box = page.getByRole('searchbox', { name: 'Search' });
      await box.fill('dash.js');
      await expect(page.getByRole('list', { name: 'Search results' })).toHaveAttribute('data-answered', 'dash.js');
    },
  },
];

const viewports = [
  { label: 'desktop', width: 1280, height: 800 },
  { label: 'mobile', width: 390, height: 844 },
];
const modes = ['light', 'dark'] as const;

async function openAs(
  browser: Browser,
  page: Page,
  signedOut: boolean,
  admin: { baseURL: string } | null,
): Promise<{ page: Page; close: () => Promise<void> }> {
  if (admin) {
    const { context, page: adminPage } = await signedInContext(browser, admin.baseURL, adminReader);
    return { page: adminPage, close: () => context.close() };
  }
  if (!signedOut) return { page, close: async () => {} };
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const fresh = await context.newPage();
  return { page: fresh, close: () => context.close() };
}

const variants = viewports.flatMap((viewport) => modes.map((mode) => ({ viewport, mode })));

// Every template in every variant with `npm run test:e2e:full`; else each template in one,
// turn about, so that every variant is met by some templates.
templates.forEach((template, index) => {
  const chosen = everyVariant ? variants : variants.slice(index % variants.length, (index % variants.length) + 1);
  for (const { viewport, mode } of chosen) {
    test(`${template.name} has no serious or critical axe violation, ${mode}, ${viewport.label}`, async ({
      page: readerPage,
      browser,
      baseURL,
    }) => {
      const { page, close } = await openAs(
        browser,
        readerPage,
        template.signedOut === true,
        template.admin ? { baseURL: String(baseURL) } : null,
      );
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
      await page.goto(template.path);
      await hydrated(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
      // The session is known (signed in or out): the navbar shows its final item.
      await expect(page.locator('html')).toHaveClass(/portal-signed-(in|out)/);
      await template.prepare?.(page);
      // Colours are judged at rest, not halfway through a transition.
      await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
      const results = await axe(page);
      const serious = results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({
          rule: violation.id,
          impact: violation.impact,
          help: violation.help,
          nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
        }));
      expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
      // axe looked at the page, not at an empty document.
      expect(results.passes.length).toBeGreaterThan(10);
      await close();
    });
  }
});
