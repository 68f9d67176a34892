import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

import { EmulatorReaders } from '../server/src/test/readers';
import { readSeed } from '../tools/lib/emulator.mjs';

export const demoReader = (() => {
  const reader = readSeed().find((r) => r.password && !r.disabled && !r.github);
  if (!reader?.password) throw new Error('The seed file has no e-mail/password demo reader');
  return { email: reader.email, password: reader.password };
})();

/** The demo reader of a role in the seed file (`staff`, `partner`, `no access`, …), with a password. */
function seededByRole(role: string): { email: string; password: string } {
  const reader = readSeed().find((r) => r.role === role && r.password);
  if (!reader?.password) throw new Error(`The seed file has no "${role}" demo reader with a password`);
  return { email: reader.email, password: reader.password };
}

export const partnerReader = seededByRole('partner');
export const noAccessReader = seededByRole('no access');
export const adminReader = seededByRole('admin');

export const githubReader = (() => {
  const reader = readSeed().find((r) => r.github);
  if (!reader) throw new Error('The seed file has no GitHub demo reader');
  return reader;
})();

export const disabledReader = (() => {
  const reader = readSeed().find((r) => r.disabled);
  if (!reader?.password) throw new Error('The seed file has no disabled demo reader');
  return { email: reader.email, password: reader.password };
})();

/** The emulator the run uses, for readers of a test's own (logout revokes every session of a reader). */
export const emulatorReaders = new EmulatorReaders(`127.0.0.1:${process.env.E2E_EMULATOR_PORT}`, 'demo-norigin-portal');

/**
 * Signs `page`'s browser in as `reader` through the session API (the sign-in form has its
 * own tests), so a test starts on the page it is about.
 */
export async function signInThroughApi(
  page: Page,
  baseURL: string,
  reader: { email: string; password: string },
): Promise<void> {
  const idToken = await emulatorReaders.signIn(reader.email, reader.password);
  const response = await page.request.post(`${baseURL}/api/session`, {
    data: { idToken },
    headers: { origin: baseURL },
  });
  expect(response.status()).toBe(200);
}

/** A browser context of its own, signed in as `reader` (readers of different kinds side by side). */
export async function signedInContext(
  browser: Browser,
  baseURL: string,
  reader: { email: string; password: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInThroughApi(page, baseURL, reader);
  return { context, page };
}

/** The tools /mcp lists for any reader, by name in order: what an assistant sees whichever way it signs in. */
export const MCP_TOOLS = [
  'api_changes',
  'get_symbol',
  'latest_changelog',
  'list_sections',
  'read_page',
  'search_docs',
  'whats_new',
];
