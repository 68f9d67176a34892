import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/build/',
      '**/build.next/',
      '**/build.previous/',
      '**/dist/',
      '**/.docusaurus/',
      'e2e/test-results/',
      'e2e/playwright-report/',
      'e2e/.canary/',
      'e2e/.flow/',
      'bench/.work/',
      'deploy/.work/',
      '.cache/',
      // npm start's data folder: its database and the site releases it serves (built files).
      'data/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['site/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
