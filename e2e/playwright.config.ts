import { fileURLToPath } from 'node:url';

import { defineConfig, devices } from '@playwright/test';

import { assertChromiumInstalled, chromiumArgs, chromiumPath } from './chromium';
import { freePort } from './free-port';

assertChromiumInstalled();

// Chosen once in the main process; the workers inherit it through the environment, so a
// portal already running on 3000 and this suite never collide.
process.env.E2E_PORT ??= String(freePort());
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['./summary-reporter.ts']],
  timeout: 30_000,
  use: {
    baseURL,
    ...devices['Desktop Chrome'],
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node ../server/dist/server.js',
    url: `${baseURL}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_DIR: fileURLToPath(new URL('../site/build', import.meta.url)),
      LOG_LEVEL: 'warn',
    },
  },
});
