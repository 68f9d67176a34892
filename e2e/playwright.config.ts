import { defineConfig, devices } from '@playwright/test';

import { assertChromiumInstalled, chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { freePorts } from '../tools/lib/ports.mjs';
import { readerState } from './reader-state';

assertChromiumInstalled();

// Chosen once in the main process; the workers inherit them through the environment, so
// a portal already running on 3000/9099 and this suite never collide.
const portSettings = [
  'E2E_PORT',
  'E2E_EMULATOR_PORT',
  'E2E_EMULATOR_HUB_PORT',
  'E2E_EMULATOR_LOGGING_PORT',
  'E2E_MAIL_SMTP_PORT',
  'E2E_MAIL_WEB_PORT',
];
const unset = portSettings.filter((name) => !process.env[name]);
if (unset.length > 0) {
  const given = new Set(portSettings.filter((name) => process.env[name]).map((name) => Number(process.env[name])));
  const ports = (await freePorts(unset.length + given.size)).filter((port) => !given.has(port));
  unset.forEach((name, index) => (process.env[name] = String(ports[index])));
}
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

const browser = {
  ...devices['Desktop Chrome'],
  launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
};

export default defineConfig({
  testDir: '.',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['./summary-reporter.ts']],
  // CI's two workers share two cores with the gate and the emulator: the three client-side
  // navigations of gate.e2e.ts take 6 s alone and took 21 s there, near the default 30 s.
  timeout: 60_000,
  // The real Firebase Auth Emulator, seeded with the demo readers, the gate server in front
  // of site/build, and the demo reader signed in once (readerState), for the whole run. No
  // project depends on another, so all of them share one phase and both workers stay busy.
  globalSetup: './global-setup.ts',
  use: { baseURL, trace: 'retain-on-failure' },
  // Workers take the projects in this order: the longest serial files first (the leak crawl
  // builds a site of its own, then crawls it; npm start's test waits on its processes), so
  // that the short tests of the other projects fill the end of the run.
  projects: [
    // The security suite: bounded here, in full with `npm run test:security` (SECURITY_FULL=1).
    { name: 'security', testMatch: 'security/*.security.ts', use: browser },
    // `npm run test:flows` only: journeys that build the portal again on the way (minutes each).
    ...(process.env.E2E_FLOWS ? [{ name: 'flows', testMatch: 'flows/*.flow.ts', use: browser }] : []),
    // `npm start` and Ctrl-C, with no browser, beside the rest: its build finds the server and
    // the site current (the run's own build made them) and rewrites none of their files.
    { name: 'start', testMatch: 'start.e2e.ts' },
    // The site as a signed-in reader sees it: every page of the spec.
    {
      name: 'reader',
      // With the look of every page template: axe on each, package cards, the pager, wide
      // tables, the navbar while the session answers.
      testMatch: [
        'routes.e2e.ts',
        'pages.e2e.ts',
        'layout.e2e.ts',
        'runtime.e2e.ts',
        'look.e2e.ts',
        'a11y.e2e.ts',
        'markdown.e2e.ts',
      ],
      use: { ...browser, storageState: readerState },
    },
    // Signing in and out, the gate as anonymous readers meet it, and readers of each group.
    {
      name: 'gate',
      // With what a signed-out visitor meets (visitor.e2e.ts), the login page (login.e2e.ts),
      // and what coding assistants use: tokens on /account, Markdown, llms.txt, search API, MCP
      // (search-agreement.e2e.ts: the search box, the search API and MCP give one answer).
      testMatch: [
        'auth.e2e.ts',
        'gate.e2e.ts',
        'search.e2e.ts',
        'search-agreement.e2e.ts',
        'groups.e2e.ts',
        'admin.e2e.ts',
        'organisations.e2e.ts',
        'visitor.e2e.ts',
        'login.e2e.ts',
        'account.e2e.ts',
        'assistant.e2e.ts',
        'assistant-insights.e2e.ts',
        'agents.e2e.ts',
        'oauth.e2e.ts',
        'access-requests.e2e.ts',
        'versions.e2e.ts',
        'api-reference.e2e.ts',
        'phones.e2e.ts',
        'whats-new.e2e.ts',
        'sso.e2e.ts',
      ],
      use: browser,
    },
    // `npm run screenshots` only: PNGs of the templates for people to look at, never compared.
    ...(process.env.PORTAL_SCREENSHOTS
      ? [
          {
            name: 'screenshots',
            testMatch: 'screenshots.shoot.ts',
            use: { ...browser, storageState: readerState },
          },
        ]
      : []),
  ],
});
