import { readFileSync } from 'node:fs';

import type { BrowserContext } from '@playwright/test';

const gapiStandIn = readFileSync(new URL('./gapi-stand-in.js', import.meta.url), 'utf8');

/**
 * This machine has no internet access. The popup sign-in loads Google's iframe-messaging
 * script, and the emulator's account chooser loads web fonts and Material styles from
 * CDNs: the first is answered with the stand-in (see gapi-stand-in.js), the rest with
 * empty files so the pages do not wait for a network that is not there.
 */
export async function serveOfflineStandIns(context: BrowserContext): Promise<void> {
  await context.route('https://apis.google.com/js/api.js*', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: gapiStandIn }),
  );
  await context.route(/^https:\/\/(fonts\.googleapis\.com|fonts\.gstatic\.com|unpkg\.com)\//, (route) =>
    route.fulfill({
      status: 200,
      contentType: route.request().url().endsWith('.js') ? 'text/javascript' : 'text/css',
      body: '',
    }),
  );
}
