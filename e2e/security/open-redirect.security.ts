import { expect, test } from '@playwright/test';

import { hydrated } from '../fixtures';
import { demoReader } from '../readers';
import { full } from './lib';
import { recordFigure } from './record';

/** Hostile `next` values: each must leave the reader on this site after signing in. */
export const hostileNextValues = [
  // absolute and scheme-relative
  'https://evil.example/',
  'http://evil.example/docs/',
  'HTTPS://EVIL.EXAMPLE',
  '//evil.example',
  '//evil.example/%2f..',
  '///evil.example',
  '////evil.example',
  'https:evil.example',
  'https:/evil.example',
  'ftp://evil.example',
  // backslashes, raw and encoded
  '/\\evil.example',
  '\\\\evil.example',
  '\\/evil.example',
  '/\\/evil.example',
  '/%5cevil.example',
  '/%5C%5Cevil.example',
  '%5C%5Cevil.example',
  // encoded slashes and dots
  '/%2f%2fevil.example',
  '/%2F/evil.example',
  '%2F%2Fevil.example',
  '/%252f%252fevil.example',
  '/.%2e/%2f%2fevil.example',
  '/%2e%2e//evil.example',
  // whitespace and control characters the URL parser strips
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r/evil.example',
  ' //evil.example',
  '\t//evil.example',
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%00//evil.example',
  '\u3000//evil.example',
  '/\u2028/evil.example',
  // script and data schemes
  'javascript:alert(document.domain)',
  'JavaScript:alert(1)',
  'java\tscript:alert(1)',
  ' javascript:alert(1)',
  'javascript://%0aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'blob:https://evil.example/1',
  // userinfo and host confusion
  'https://127.0.0.1@evil.example/',
  '//127.0.0.1@evil.example',
  '/@evil.example',
  '//evil.example@127.0.0.1',
  'https://evil.example#@127.0.0.1',
  'https://evil.example?@127.0.0.1/',
  '//evil.example\\@127.0.0.1',
  'http://[::1]@evil.example',
  // look-alikes and oddities
  '//evil。example',
  '//ｅｖｉｌ.example',
  '/ /evil.example',
  'evil.example',
  '.evil.example',
  '?next=//evil.example',
  '#//evil.example',
  '/login?next=//evil.example',
  'x'.repeat(5000),
];

const alwaysTried = [
  'https://evil.example/',
  '//evil.example',
  '/\\evil.example',
  'javascript:alert(document.domain)',
  '/%2F/evil.example',
];

test('hostile next values: the reader always stays on the site', async ({ browser, baseURL }) => {
  test.setTimeout(full ? 10 * 60_000 : 3 * 60_000);
  expect(hostileNextValues.length).toBeGreaterThanOrEqual(50);
  const origin = new URL(baseURL ?? '').origin;
  // npm test: every fourth value, and the five a reader is likeliest to meet (one of each kind).
  const values = full
    ? hostileNextValues
    : hostileNextValues.filter((value, index) => index % 4 === 0 || alwaysTried.includes(value));
  const offSite: string[] = [];
  const context = await browser.newContext();
  const page = await context.newPage();
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  for (const next of values) {
    await context.clearCookies();
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await hydrated(page);
    await page.getByLabel('E-mail').fill(demoReader.email);
    await page.getByLabel('Password').fill(demoReader.password);
    const loginUrl = page.url();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.href !== loginUrl, { timeout: 15_000 });
    await expect(page.getByRole('navigation').getByRole('button', { name: /^Account menu/ })).toBeVisible();
    if (new URL(page.url()).origin !== origin) offSite.push(`${JSON.stringify(next)} → ${page.url()}`);
    // The likeliest ones land on the home page, as a next value the site cannot use does.
    else if (alwaysTried.includes(next) && new URL(page.url()).pathname !== '/')
      offSite.push(`${JSON.stringify(next)} → ${page.url()} (not the home page)`);
  }
  const left = visited.filter((url) => !url.startsWith(origin) && url !== 'about:blank');
  recordFigure('open_redirect', {
    values: values.length,
    listed: hostileNextValues.length,
    offSite: offSite.length + left.length,
  });
  console.log(
    `open redirect: ${values.length} hostile next values through the login page, ${offSite.length} left the site`,
  );
  expect(offSite).toEqual([]);
  expect(left).toEqual([]);
  await context.close();
});
