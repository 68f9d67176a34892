import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

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
    // One real Firebase Auth Emulator for the server tests (started once, about 8 s).
    globalSetup: ['./server/src/test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 90_000,
    include: [
      'packages/*/*.test.ts',
      'server/src/**/*.test.ts',
      'site/test/**/*.test.ts',
      'site/src/**/*.test.ts',
      'scripts/**/*.test.ts',
      'tools/**/*.test.mjs',
      'bench/*.test.mjs',
      'deploy/*.test.ts',
      'docs/*.test.ts',
    ],
  },
});
