import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/src/**/*.test.ts', 'site/test/**/*.test.ts', 'site/src/**/*.test.ts', 'scripts/**/*.test.ts'],
  },
});
