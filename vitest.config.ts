import { fileURLToPath } from 'node:url';

import { configDefaults, defineConfig } from 'vitest/config';

/** Where the tests sit, beside the code they test. */
const TESTS = [
  'packages/*/*.test.ts',
  'server/src/**/*.test.ts',
  'site/test/**/*.test.ts',
  'site/src/**/*.test.ts',
  'scripts/**/*.test.ts',
  'tools/**/*.test.mjs',
  'bench/*.test.mjs',
  'deploy/*.test.ts',
  'docs/*.test.ts',
];

/**
 * The tiers besides the unit tests, each named in its files (`sync.build.test.ts`):
 *   build   syncs, TypeDoc and Docusaurus builds, against registries and git repositories the
 *           tests make on this machine (`npm run test:build`)
 *   public  the few tests about the real package on the public npm registry, the only tests
 *           that reach beyond this machine (`npm run test:public-registry`)
 */
const TIERS = { build: 'build', 'public-registry': 'public' } as const;
const ofTier = (tier: string) => TESTS.map((glob) => glob.replace(/\.test\./, `.${tier}.test.`));

export default defineConfig({
  resolve: {
    alias: [
      // The contract's sources, so unit tests need no build of it first.
      {
        find: /^@portal\/contract\/names$/,
        replacement: new URL('./packages/contract/src/names.ts', import.meta.url).pathname,
      },
      {
        find: /^@portal\/contract$/,
        replacement: new URL('./packages/contract/src/index.ts', import.meta.url).pathname,
      },
      // The site's own alias (Docusaurus resolves `@site/…` to the site folder), for its unit tests.
      { find: /^@site\//, replacement: `${fileURLToPath(new URL('./site', import.meta.url))}/` },
    ],
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 90_000,
    projects: [
      {
        extends: true,
        test: {
          // Loopback only, and never a sync or a build: `npm run test:unit` runs them with no network.
          name: 'unit',
          include: TESTS,
          exclude: [...configDefaults.exclude, ...Object.values(TIERS).flatMap(ofTier)],
          // One real Firebase Auth Emulator for the server tests (started once, about 8 s).
          globalSetup: ['./server/src/test/global-setup.ts'],
          // Stubbed globals (fetch, window) are put back after each test: the files of a worker
          // share their modules (`--isolate=false` in the test:unit script).
          unstubGlobals: true,
        },
      },
      ...Object.entries(TIERS).map(([name, tier]) => ({
        extends: true as const,
        test: { name, include: ofTier(tier) },
      })),
    ],
  },
});
