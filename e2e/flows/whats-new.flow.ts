// "What's new for you" end to end (issue 64's first "done when"), behind `npm run
// test:flows`: it builds the portal twice (a few minutes each on two cores). A package is
// published to a registry of the test's own (Verdaccio), synced into a copy of the site and
// built; a partner reads its setFocus page in Chromium and asks for the digest; a release that
// changes setFocus is published, synced and built; the gate starts on the new build with the
// same database. The partner's "what's new" lists the package first with setFocus first and
// both signatures, the sidebar marks the section, the feed has the release, and the digest
// arrives in MailDev with an unsubscribe link that works.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, test } from '@playwright/test';

import { loadSources, sync } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

import { startGate, type RunningGate } from '../../tools/lib/gate.mjs';
import { startMailCatcher, type MailCatcher } from '../../tools/lib/mail-catcher.mjs';
import { freePort } from '../../tools/lib/ports.mjs';
import { startVerdaccio, type RunningVerdaccio } from '../../tools/lib/verdaccio.mjs';
import { emulatorReaders, partnerReader, signInThroughApi } from '../readers';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, as the leak crawl's copy is: the copy's config finds the workspace's packages.
const work = join(root, 'e2e', '.flow');
const project = join(work, 'project');
const siteDir = join(work, 'site');
const cacheDir = join(work, 'sources-cache');
const dataDir = join(work, 'data');
const PACKAGE = '@tvco/focus-kit';
const SECTION = 'layout-engine/focus-kit';

const declarations = {
  '1.0.0': [
    '/** Moves the focus to the component with this key. */',
    'export declare function setFocus(key: string): void;',
    '/** Stops reacting to keys. */',
    'export declare function pause(): void;',
  ],
  '1.1.0': [
    '/** Moves the focus to the component with this key, and scrolls it into view when asked. */',
    'export declare function setFocus(key: string, options?: { scroll?: boolean }): Promise<void>;',
    '/** Stops reacting to keys. */',
    'export declare function pause(): void;',
  ],
};

let verdaccio: RunningVerdaccio;
let token: string;
let catcher: MailCatcher;
let gate: RunningGate | undefined;
let port: number;

test.describe.configure({ mode: 'serial', timeout: 15 * 60_000 });

async function publishAndBuild(version: keyof typeof declarations): Promise<void> {
  verdaccio.publishTyped(
    {
      name: PACKAGE,
      version,
      description: 'Focus kit of the what’s-new flow',
      readme: `# Focus kit\n\nCall \`setFocus\` once the app has drawn (${version}).\n`,
      declarations: `${declarations[version].join('\n')}\n`,
    },
    token,
  );
  await sync(loadSources(join(siteDir, 'sources.yaml'), { siteDir }), {
    cacheDir,
    root: project,
    only: ['focus-kit'],
    env: { ...process.env, HOME: work },
  });
  const docusaurus = join(root, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');
  const build = spawnSync(process.execPath, [docusaurus, 'build'], {
    cwd: siteDir,
    encoding: 'utf8',
    env: { ...process.env, PORTAL_SOURCES_CACHE: cacheDir },
  });
  if (build.status !== 0) throw new Error(`the build of ${version} failed:\n${build.stdout}\n${build.stderr}`);
}

/** The gate on the build in the copy, the same database and port each time (a new release's gate). */
async function startPortal(): Promise<string> {
  await gate?.stop();
  gate = await startGate({
    siteDir: join(siteDir, 'build'),
    dataDir,
    port,
    emulatorHost: emulatorReaders.host,
    env: {
      SESSION_SECRET: 'whats-new-flow-secret-of-this-gate',
      SMTP_URL: catcher.smtpUrl,
      SESSION_RATE_LIMIT: '1000',
    },
  });
  return gate.baseURL;
}

test.beforeAll(async () => {
  test.setTimeout(10 * 60_000);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(project, { recursive: true });
  const source = join(root, 'site');
  cpSync(source, siteDir, {
    recursive: true,
    filter: (path) => !/[/\\](node_modules|build|\.docusaurus)([/\\]|$)/.test(path.slice(source.length)),
  });
  cpSync(syncPaths().cacheDir, cacheDir, { recursive: true });
  mkdirSync(join(work, 'registry'), { recursive: true });
  verdaccio = await startVerdaccio({ work: join(work, 'registry') });
  token = await verdaccio.addUser('publisher', 'a-long-enough-password');
  writeFileSync(join(project, '.npmrc'), verdaccio.npmrc('@tvco', token));
  appendFileSync(
    join(siteDir, 'sources.yaml'),
    `  - id: focus-kit\n    kind: npm\n    package: '${PACKAGE}'\n    section: ${SECTION}\n` +
      `    title: Focus kit\n    versions: '>=1.0.0'\n    pick: all\n`,
  );
  catcher = await startMailCatcher();
  port = await freePort();
  await publishAndBuild('1.0.0');
});

test.afterAll(async () => {
  await gate?.stop();
  await verdaccio?.stop();
  await catcher?.stop();
  rmSync(work, { recursive: true, force: true });
});

test('a release that changes the symbol a partner read reaches their page, sidebar, feed and mail', async ({
  page,
}) => {
  const base = await startPortal();
  await signInThroughApi(page, base, partnerReader);
  // The partner reads the package at 1.0.0, its setFocus first, and asks for a mail per release.
  expect((await page.goto(`${base}/docs/${SECTION}/api/setFocus`))?.status()).toBe(200);
  expect((await page.goto(`${base}/docs/${SECTION}/`))?.status()).toBe(200);
  await page.goto(`${base}/account/whats-new`);
  await expect(page.locator('html[data-has-hydrated="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByLabel('With each release of a package I watch').check();
  await expect(page.getByRole('status').filter({ hasText: 'A digest will be mailed' })).toBeVisible();
  // Page views are written once a second; the gate writes the rest as it stops.
  await page.waitForTimeout(1_500);

  await publishAndBuild('1.1.0');
  await startPortal();

  await page.goto(`${base}/account/whats-new`);
  const releases = page.getByRole('region', { name: 'New releases' });
  const first = releases.getByRole('region').first();
  await expect(first.getByRole('heading', { level: 3 })).toHaveText('Focus kit');
  const symbol = first.getByRole('listitem').first();
  await expect(symbol).toContainText('You read setFocus; 1.1.0 changed its signature.');
  await expect(symbol.getByText('Before (1.0.0)')).toBeVisible();
  await expect(symbol.getByText('After (1.1.0)')).toBeVisible();
  await expect(symbol).toContainText('setFocus(key: string): void');
  await expect(symbol).toContainText('options?: { scroll?: boolean }');

  // The sidebar marks the section with news, read out as such.
  await page.goto(`${base}/docs/layout-engine/`);
  await expect(
    page.getByRole('navigation', { name: 'Docs sidebar' }).getByRole('link', { name: /^Layout Engine.*new for you/ }),
  ).toBeVisible();

  // The feed has the release.
  await page.goto(`${base}/account/whats-new`);
  await page.getByRole('button', { name: 'Make a feed address' }).click();
  const address = (await page.getByLabel('Feed address', { exact: true }).innerText()).trim();
  const feed = await page.request.get(address, { headers: { cookie: '' } });
  expect(await feed.text()).toContain('Focus kit 1.1.0 (breaking)');

  // The digest is in MailDev, once, and its one-click unsubscribe stops the next.
  const mine = async () =>
    (await catcher.messages()).filter((mail) => mail.to.some((to) => to.address === partnerReader.email));
  await expect
    .poll(async () => (await mine()).map((mail) => mail.subject), { timeout: 20_000 })
    .toEqual(['New release: Focus kit 1.1.0']);
  const [mail] = await mine();
  const source = readFileSync(mail?.source ?? '', 'utf8').replace(/\r?\n[ \t]+/g, ' ');
  expect(source).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\s*$/m);
  const link = /^List-Unsubscribe: <([^>]+)>\s*$/m.exec(source)?.[1] ?? '';
  const stop = await page.request.post(link, {
    headers: { cookie: '', 'content-type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(stop.status()).toBe(200);
  await page.goto(`${base}/account/whats-new`);
  await expect(page.getByLabel('Never')).toBeChecked();
});
