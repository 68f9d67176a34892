import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

import { readFileSync } from 'node:fs';

interface SiteFacts {
  title: string;
  organization: string;
  titleDelimiter: string;
  codeHostingUrl: string;
  announcement: { id: string };
}

/** The same facts file the site's config reads (site/site.facts.json). */
const site = JSON.parse(readFileSync(new URL('../site/site.facts.json', import.meta.url), 'utf8')) as SiteFacts;

export { expect };

/**
 * `npm run test:e2e:full` sets this: every variant of the suite's matrices (each page template
 * in both colour modes at both widths, every page of the site). `npm test` runs a bounded cut
 * that still meets each template, mode and width.
 */
export const everyVariant = process.env.E2E_FULL === '1';

/**
 * Of a long list of pages, what a check opens: all with `npm run test:e2e:full`, in `npm test`
 * one in `every` (3 unless said), from the `offset`-th on, so that checks of overlapping
 * lists can each take other pages.
 */
export function pagesToOpen<T>(pages: readonly T[], { every = 3, offset = 0 } = {}): readonly T[] {
  return everyVariant ? pages : pages.filter((_, index) => index % every === offset % every);
}

/** "Page | Norigin Developer Docs": the spec's title rule. */
export function fullTitle(pageTitle: string): string {
  return `${pageTitle} ${site.titleDelimiter} ${site.title}`;
}

/**
 * Waits until React has hydrated the server-rendered page, as Docusaurus's own tests do. The
 * longest pages (2.3.0's README of Norigin Spatial Navigation: 5,584 elements) took more than
 * the default 5 s to hydrate with the suite's two workers on a two-core machine; a wait, not
 * a measure of speed (that is `npm run bench`).
 */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.locator('html[data-has-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
}

/**
 * axe-core on the page as it is now, run in the page itself (axe's legacy mode). The default
 * mode differs only for frames from other origins, which the site never embeds, and opens a
 * blank page for every check.
 */
export function axe(page: Page): ReturnType<AxeBuilder['analyze']> {
  return new AxeBuilder({ page }).setLegacyMode(true).analyze();
}

/** Fills and sends the login page's form, as a reader does. */
export async function signInWithEmail(page: Page, email: string, password: string): Promise<void> {
  await hydrated(page);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The signed-in reader's avatar menu in the navbar: its button says whose it is. */
export function accountMenu(page: Page): Locator {
  return page.getByRole('navigation').getByRole('button', { name: /^Account menu \(/ });
}

/** Signs out as a reader does: opens the avatar menu and chooses Logout. */
export async function logOut(page: Page): Promise<void> {
  await accountMenu(page).click();
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Logout/ })
    .click();
}

interface Fixtures {
  /** Console errors a test expects (a deliberate crash, a blocked chunk); any other fails it. */
  allowedConsoleErrors: RegExp | null;
  /**
   * The worker's one page (`sharedPage`), for tests that only read: each test goes to its
   * own address in it, and the site's scripts are already compiled, as for a reader going
   * from page to page. Its console errors are the test's own.
   */
  warmPage: Page;
}

interface WorkerFixtures {
  /** A page in a browser context with the project's options, kept for all the tests of a worker. */
  sharedPage: { page: Page; errors: string[]; allowed: { current: RegExp | null } };
}

/** Collects into `errors` the console errors of `page` that `allowed` does not match. */
function watchConsole(page: Page, errors: string[], allowed: { current: RegExp | null }): void {
  // Documents the server answered with its not-found page: their 404 is by design.
  const notFoundDocuments = new Set<string>();
  page.on('response', (response) => {
    if (response.status() === 404 && response.request().resourceType() === 'document')
      notFoundDocuments.add(response.url());
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // Chromium logs the not-found page's own 404 as an error; a missing file is still one.
    if (text.includes('status of 404') && notFoundDocuments.has(message.location().url)) return;
    if (allowed.current?.test(text)) return;
    errors.push(text);
  });
  page.on('pageerror', (error) => {
    if (!allowed.current?.test(error.message)) errors.push(error.message);
  });
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  allowedConsoleErrors: [null, { option: true }],
  page: async ({ page, allowedConsoleErrors }, use) => {
    const errors: string[] = [];
    watchConsole(page, errors, { current: allowedConsoleErrors });
    await use(page);
    expect(errors, 'unexpected console errors').toEqual([]);
  },
  sharedPage: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, storageState, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } =
        workerInfo.project.use;
      const context = await browser.newContext({
        baseURL,
        storageState,
        viewport,
        userAgent,
        deviceScaleFactor,
        isMobile,
        hasTouch,
      });
      const shared = { page: await context.newPage(), errors: [], allowed: { current: null } };
      watchConsole(shared.page, shared.errors, shared.allowed);
      await use(shared);
      await context.close();
    },
    { scope: 'worker' },
  ],
  warmPage: async ({ sharedPage, allowedConsoleErrors }, use) => {
    sharedPage.errors.length = 0;
    sharedPage.allowed.current = allowedConsoleErrors;
    await use(sharedPage.page);
    expect(sharedPage.errors.splice(0), 'unexpected console errors').toEqual([]);
  },
});

export { site };
