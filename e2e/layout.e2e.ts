import { hydrated, expect, site, test } from './fixtures';

test.describe('navbar', () => {
  test('shows the logo and title, Documentation, GitHub, the language menu, Account, Logout and the theme switch', async ({
    page,
  }) => {
    await page.goto('/docs/layout-engine/');
    await hydrated(page);
    const navbar = page.getByRole('navigation', { name: 'Main' });
    await expect(navbar.getByRole('img', { name: `${site.organization} logo` })).toBeVisible();
    await expect(navbar.getByText(site.title, { exact: true })).toBeVisible();
    await expect(navbar.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', '/docs/');
    await expect(navbar.getByRole('link', { name: 'GitHub' })).toHaveAttribute('href', site.codeHostingUrl);
    // The reader projects run signed in; gate.e2e.ts sees the Login link of a signed-out reader.
    await expect(navbar.getByRole('link', { name: 'Login' })).toHaveCount(0);
    await expect(navbar.getByRole('button', { name: /Switch between dark and light mode/ })).toBeVisible();
    // The whole title fits at 1280 px: nothing of it is cut.
    const title = navbar.locator('.navbar__title');
    expect(await title.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);

    // E-mail, Account and Logout sit behind one avatar menu: one click shows them.
    const menuButton = navbar.getByRole('button', { name: 'Account menu (reader@norigin.example)' });
    const logout = navbar.getByRole('button', { name: /^Logout \(reader@norigin\.example\)$/ });
    await expect(logout).toBeHidden();
    await menuButton.click();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await expect(navbar.getByText('reader@norigin.example', { exact: true })).toBeVisible();
    await expect(navbar.getByRole('link', { name: 'Account', exact: true })).toHaveAttribute('href', '/account');
    await expect(logout).toBeVisible();
    // Escape closes it and gives focus back to the button.
    await page.keyboard.press('Escape');
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await expect(menuButton).toBeFocused();
    // From the keyboard: Enter opens it, Tab walks to Account, What's new, the assistant's page and Logout.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(navbar.getByRole('link', { name: 'Account', exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(navbar.getByRole('link', { name: 'What’s new for you', exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(navbar.getByRole('link', { name: 'Use with your assistant', exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(logout).toBeFocused();
    await page.keyboard.press('Escape');

    // The language menu says "EN" on the bar, its name and its one choice say English.
    const language = navbar.getByRole('button', { name: 'EN (language: English)' });
    await expect(language.getByText('EN', { exact: true })).toBeVisible();
    await language.hover();
    const choices = navbar
      .locator('.dropdown')
      .filter({ has: page.getByRole('button', { name: 'EN (language: English)' }) })
      .locator('.dropdown__menu a');
    await expect(choices).toHaveCount(1);
    await expect(choices).toHaveText('English');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  });

  test('stays in view when the reader scrolls down', async ({ page }) => {
    await page.goto('/docs/Spat-Nav/Detailed_README_SpatNav');
    await hydrated(page);
    await page.mouse.wheel(0, 3000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.mouse.wheel(0, 400);
    await expect(page.locator('.navbar')).not.toHaveClass(/navbarHidden/);
    await expect(page.locator('.navbar')).toBeInViewport();
  });
});

test('the footer has Docs, Community and More links and the 2025 copyright', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  const footer = page.locator('footer');
  await expect(footer.getByText('Docs', { exact: true })).toBeVisible();
  await expect(footer.getByText('Community', { exact: true })).toBeVisible();
  await expect(footer.getByText('More', { exact: true })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', '/docs/');
  await expect(footer.getByRole('link', { name: 'Reference App' })).toHaveAttribute(
    'href',
    '/docs/norigin-reference-app/',
  );
  await expect(footer.getByRole('link', { name: 'Layout Engine' })).toHaveAttribute('href', '/docs/layout-engine/');
  await expect(footer.getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/blog');
  await expect(footer).toContainText(`Copyright © 2025 ${site.organization}`);
});

test('the table of contents lists headings of levels 2 to 5 and no others', async ({ page }) => {
  await page.goto('/docs/Spat-Nav/Detailed_README_SpatNav');
  await hydrated(page);
  const article = page.locator('article');
  const tocLinks = page.locator('.theme-doc-toc-desktop a.table-of-contents__link');
  const tocTargets = new Set((await tocLinks.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).sort());

  for (const level of [2, 3, 4, 5]) {
    const ids = await article.locator(`h${level}[id]`).evaluateAll((hs) => hs.map((h) => `#${h.id}`));
    expect(ids.length, `the page has h${level} headings`).toBeGreaterThan(0);
    for (const id of ids) expect(tocTargets).toContain(id);
  }
  const h6 = await article.locator('h6[id]').evaluateAll((hs) => hs.map((h) => `#${h.id}`));
  for (const id of h6) expect(tocTargets).not.toContain(id);
  // Nested lists show the hierarchy down to the fourth level of nesting (h5).
  await expect(page.locator('.theme-doc-toc-desktop ul ul ul li a').first()).toBeAttached();
});

test('breadcrumbs follow the sidebar path', async ({ page }) => {
  await page.goto('/docs/player-manager-mono/packages/player-adapter-dash.js/');
  await hydrated(page);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' }).locator('.breadcrumbs__item');
  await expect(crumbs).toHaveText(['', 'Player Framework', 'Player packages', 'Player adapters', 'DASH adapter']);
  await expect(crumbs.nth(1).getByRole('link')).toHaveAttribute('href', '/docs/category/player-framework');
  await expect(crumbs.nth(2).getByRole('link')).toHaveAttribute('href', '/docs/player-manager-mono/');
});

test.describe('docs sidebar', () => {
  test('starts with Getting Started, cannot be hidden, and keeps opened categories open', async ({ page }) => {
    await page.goto('/docs/');
    await hydrated(page);
    const sidebar = page.locator('.theme-doc-sidebar-menu');
    await expect(sidebar.getByRole('link').first()).toHaveText('Getting Started');
    await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toHaveCount(0);

    // Opening a second category does not close the first (no auto-collapse).
    const categories = sidebar.locator(':scope > .theme-doc-sidebar-item-category');
    const playerFramework = categories.filter({ hasText: 'Player Framework' });
    const uiToolkit = categories.filter({ hasText: 'UI Toolkit' });
    await playerFramework.getByRole('button', { name: /Expand sidebar category/ }).click();
    await uiToolkit.getByRole('button', { name: /Expand sidebar category/ }).click();
    await expect(playerFramework).not.toHaveClass(/menu__list-item--collapsed/);
    await expect(uiToolkit).not.toHaveClass(/menu__list-item--collapsed/);
    await expect(playerFramework.getByRole('link', { name: 'Player packages', exact: true })).toBeVisible();
  });
});

test.describe('colour mode', () => {
  test.use({ colorScheme: 'dark' });

  test('starts light even when the system prefers dark, and the toggle persists under "theme"', async ({ page }) => {
    await page.goto('/docs/');
    await hydrated(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

    await page.getByRole('button', { name: /Switch between dark and light mode/ }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

    await page.reload();
    await hydrated(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.goto('/blog');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });
});

test('code blocks use a light highlighter theme and a dark one', async ({ page }) => {
  await page.goto('/docs/');
  await hydrated(page);
  const code = page.locator('article pre').first();
  const background = () => code.evaluate((element) => getComputedStyle(element).backgroundColor);
  const light = await background();
  await page.getByRole('button', { name: /Switch between dark and light mode/ }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(background).not.toBe(light);
  // github (light) and dracula (dark): a pale and a deep background.
  const channels = (rgb: string) => (rgb.match(/\d+/g) ?? []).slice(0, 3).map(Number);
  expect(Math.min(...channels(light))).toBeGreaterThan(200);
  expect(Math.max(...channels(await background()))).toBeLessThan(80);
});

test.describe('announcement bar', () => {
  test('stays closed after reload once dismissed', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    const bar = page.getByRole('banner').filter({ hasText: 'Player Manager 4.2 is out' });
    await expect(bar).toBeVisible();
    await bar.getByRole('button', { name: 'Close' }).click();
    await expect(bar).toBeHidden();

    await page.reload();
    await hydrated(page);
    await expect(page.getByText('Player Manager 4.2 is out')).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('docusaurus.announcement.dismiss'))).toBe('true');
    expect(await page.evaluate(() => localStorage.getItem('docusaurus.announcement.id'))).toBe(site.announcement.id);
  });

  test('shows again when its id changes', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    // A reader who dismissed an older announcement.
    await page.evaluate(() => {
      localStorage.setItem('docusaurus.announcement.dismiss', 'true');
      localStorage.setItem('docusaurus.announcement.id', 'an-older-announcement');
    });
    await page.reload();
    await hydrated(page);
    await expect(page.getByText('Player Manager 4.2 is out')).toBeVisible();
  });
});

test.describe('mobile layout', () => {
  for (const width of [996, 600]) {
    test(`at ${width} px the sidebar moves into the navbar menu`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/docs/layout-engine/');
      await hydrated(page);
      await expect(page.locator('.theme-doc-sidebar-container')).toBeHidden();
      const toggle = page.getByRole('button', { name: 'Toggle navigation bar' });
      await expect(toggle).toBeVisible();
      await toggle.click();
      const menu = page.locator('.navbar-sidebar');
      await expect(menu).toBeVisible();
      await expect(menu.getByRole('link', { name: 'Getting Started' })).toBeVisible();
      await menu.getByRole('link', { name: 'Getting Started' }).click();
      await expect(page).toHaveURL(/\/docs\/$/);
      await expect(page.locator('.navbar-sidebar--show')).toHaveCount(0);
    });
  }

  test('at 997 px the desktop sidebar shows and there is no menu button', async ({ page }) => {
    await page.setViewportSize({ width: 997, height: 800 });
    await page.goto('/docs/layout-engine/');
    await hydrated(page);
    await expect(page.locator('.theme-doc-sidebar-container')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Toggle navigation bar' })).toBeHidden();
  });

  test('an open mobile menu is closed when the window grows to desktop width', async ({ page }) => {
    await page.setViewportSize({ width: 600, height: 800 });
    await page.goto('/docs/layout-engine/');
    await hydrated(page);
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await expect(page.locator('.navbar-sidebar--show')).toHaveCount(1);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.locator('.navbar-sidebar--show')).toHaveCount(0);
    await expect(page.locator('.theme-doc-sidebar-container')).toBeVisible();
  });

  test('the mobile menu closes on back navigation', async ({ page }) => {
    await page.setViewportSize({ width: 400, height: 800 });
    await page.goto('/docs/');
    await hydrated(page);
    await page.goto('/docs/layout-engine/');
    await hydrated(page);
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await expect(page.locator('.navbar-sidebar--show')).toHaveCount(1);
    await page.goBack();
    await expect(page.locator('.navbar-sidebar--show')).toHaveCount(0);
  });
});

test('blog posts show their reading time', async ({ page }) => {
  await page.goto('/blog/welcome');
  await hydrated(page);
  await expect(page.locator('article header')).toContainText(/\d+ min read/);
  await page.goto('/blog');
  await expect(page.locator('article').first()).toContainText(/\d+ min read/);
});

test('the MDX post renders its tabs, component and expression', async ({ page }) => {
  await page.goto('/blog/mdx-blog-post');
  await hydrated(page);
  await expect(page.getByRole('tab', { name: 'Samsung Tizen' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'LG webOS' }).click();
  await expect(page.getByText('ares-install --device tv')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('docusaurus.tab.tv-platform'))).toBe('webos');
  await expect(page.locator('kbd', { hasText: 'OK' })).toBeVisible();
  await expect(page.getByText('every one of the 23 player-manager packages')).toBeVisible();
});
