import { test as setup, expect } from '@playwright/test';

import { readerState } from './playwright.config';
import { demoReader, emulatorReaders } from './readers';

// The reader tests read private pages; the sign-in UI itself is tested in auth.e2e.ts.
setup('sign the demo reader in', async ({ page, baseURL }) => {
  const idToken = await emulatorReaders.signIn(demoReader.email, demoReader.password);
  await page.goto('/');
  const response = await page.request.post('/api/session', {
    data: { idToken },
    headers: { origin: baseURL ?? '' },
  });
  expect(response.status()).toBe(200);
  await page.goto('/docs/layout-engine/');
  await expect(page).toHaveURL(/\/docs\/layout-engine\/$/);
  await page.context().storageState({ path: readerState });
});
