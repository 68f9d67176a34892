import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import config from '../docusaurus.config';

// Docusaurus writes the site config, plugin and preset options included, into
// `@generated/docusaurus.config` as JSON, and the main bundle every visitor loads imports it.
const publicConfig = JSON.stringify(config);

describe('the site config, which every visitor downloads in the main bundle', () => {
  it('gives the blog no description: its plugin reads it from the blog folder at build time', () => {
    expect(publicConfig).not.toMatch(/blogDescription/);
    const description = readFileSync(new URL('../blog/description.txt', import.meta.url), 'utf8').trim();
    expect(description.length).toBeGreaterThan(20);
    expect(publicConfig).not.toContain(description);
  });
});
