import { defineConfig } from 'vitest/config';

export default defineConfig({
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
    ],
  },
});
