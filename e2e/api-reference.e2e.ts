// The open section's API reference, made at build time from the type declarations of each
// release of the real package: a symbol named in a README's code is one click from its page
// in the release the reader chose, search finds a symbol's page first, and assistants get
// each page as Markdown and in llms.txt.
import { expect, hydrated, test } from './fixtures';

const section = '/docs/Norigin-Spatial-Navigation/';

test.describe('the API reference of a synced package', () => {
  test('leads from useFocusable in the README of the chosen release to its reference page in one click', async ({
    page,
  }) => {
    // The reader chooses 2.3.0 in the version menu, from the newest release's landing page.
    await page.goto(section);
    await hydrated(page);
    const navbar = page.getByRole('navigation', { name: 'Main' });
    await navbar.getByRole('button', { name: /choose another/ }).hover();
    await navbar.getByRole('link', { name: '2.3.0', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${section}2\\.3\\.0/$`));

    await page.getByRole('main').getByRole('link', { name: 'useFocusable', exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`${section}2\\.3\\.0/api/useFocusable/?$`));
    await expect(page.getByRole('heading', { level: 1, name: 'useFocusable' })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main).toContainText('useFocusable is a hook of @noriginmedia/norigin-spatial-navigation 2.3.0');
    await expect(main.getByRole('heading', { name: /^Parameters/ })).toBeVisible();
    // The sidebar does not list symbol pages; the trail still leads back through the reference.
    const trail = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await expect(trail.getByRole('link', { name: 'API reference' })).toHaveAttribute(
      'href',
      new RegExp(`${section}2\\.3\\.0/api/?$`),
    );
    await expect(trail.getByRole('listitem').last()).toHaveText('useFocusable');
    // In the newest release, the whole way from the section.
    await page.goto(`${section}api/useFocusable/`);
    await expect(trail.getByRole('listitem')).toHaveText([
      '',
      'Navigation and Layout',
      'Norigin Spatial Navigation',
      'API reference',
      'useFocusable',
    ]);
    await page.goBack();
    // An older release's page says which release is the newest, like its other pages.
    await expect(main.getByRole('note').filter({ hasText: 'Norigin Spatial Navigation 2.3.0' })).toBeVisible();
  });

  test('groups the newest release’s symbols by kind and shows what each release changed, removed and changed first', async ({
    page,
  }) => {
    await page.goto(`${section}api/`);
    const main = page.getByRole('main');
    for (const kind of ['Hooks', 'Functions', 'Interfaces', 'Types'])
      await expect(main.getByRole('heading', { level: 2, name: kind })).toBeVisible();
    await main.getByRole('link', { name: 'API changes' }).first().click();
    await expect(page).toHaveURL(new RegExp(`${section}api/api-changes/?$`));
    const headings = await page.getByRole('main').getByRole('heading', { level: 3 }).allTextContents();
    // Within each release, Removed and Changed come before Added.
    const order = headings.map((text) => text.replace(/\W+$/, '').trim());
    for (let index = 1; index < order.length; index++)
      if (order[index - 1] === 'Added') expect(order[index]).not.toBe('Removed');
    expect(order).toContain('Added');
  });

  test('search finds a symbol’s page first; its Markdown twin and llms.txt carry it', async ({ request }) => {
    const answer = await request.get('/api/search?q=useFocusable&limit=5');
    expect(answer.status()).toBe(200);
    const results = ((await answer.json()) as { results: { url: string }[] }).results.map((result) => result.url);
    expect(results[0]).toMatch(new RegExp(`^${section}api/useFocusable/?$`));

    const twin = await request.get(`${section}api/useFocusable.md`);
    expect(twin.status()).toBe(200);
    expect(await twin.text()).toMatch(/```ts\nconst useFocusable: /);
    const index = await (await request.get('/llms.txt')).text();
    // llms.txt links with absolute URLs at the address it was asked on.
    expect(index).toContain(`${section}api/useFocusable.md)`);
  });
});
