import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Plugin } from '@docusaurus/types';
import { describe, expect, it } from 'vitest';

import prismOffStartup, { prismOnServerOnly } from './prism-off-startup';

const siteDir = join(fileURLToPath(import.meta.url), '..', '..', '..');

type Replace = (data: { createData?: { resource?: string } }) => void;
type Done = (stats: { compilation: { modules: Iterable<{ resource?: string }> } }) => void;

/** The plugin's bundler config, with the replacement rule it hands the bundler kept for the test to drive. */
function configure(plugin: Plugin, isServer = false) {
  const rules: { pattern: RegExp; replace: Replace }[] = [];
  // Records the rule where the bundler's own plugin would apply it.
  const NormalModuleReplacementPlugin = function (this: unknown, pattern: RegExp, replace: Replace) {
    rules.push({ pattern, replace });
  };
  const utils = { currentBundler: { name: 'rspack', instance: { NormalModuleReplacementPlugin } } };
  if (!plugin.configureWebpack || !plugin.postBuild)
    throw new Error('the plugin configures the bundler and checks the build');
  // @ts-expect-error: only what the plugin reads of the bundler's config and utilities
  const config = plugin.configureWebpack({}, isServer, utils, {});
  // The build check, applied to a compiler whose `done` the test calls with the modules bundled.
  const done: Done[] = [];
  for (const other of (config as { plugins?: { apply?: unknown }[] }).plugins ?? []) {
    if (typeof other.apply === 'function')
      other.apply({ hooks: { done: { tap: (_: string, fn: Done) => done.push(fn) } } });
  }
  const finish = (...resources: string[]) => {
    for (const fn of done) fn({ compilation: { modules: resources.map((resource) => ({ resource })) } });
  };
  return { config, rules, finish };
}

const postBuild = (plugin: Plugin) =>
  // @ts-expect-error: postBuild reads nothing of its props
  plugin.postBuild?.({});

describe('the Prism-off-start-up plugin', () => {
  const languages = createRequire(join(siteDir, 'package.json')).resolve(
    '@docusaurus/theme-classic/lib/prism-include-languages',
  );
  const empty = join(siteDir, 'src', 'prism', 'no-startup.ts');

  it("puts src/prism/no-startup.ts in the place of the classic theme's Prism client module, with no way back to it", () => {
    for (const isServer of [false, true]) {
      const { config, rules } = configure(prismOffStartup({ siteDir }), isServer);
      const [{ pattern, replace }] = rules;
      expect(pattern.test(languages)).toBe(true);
      expect((config as { resolve?: unknown }).resolve).toBeUndefined();
      const data = { createData: { resource: languages } };
      replace(data);
      expect(data.createData.resource).toBe(empty);
    }
  });

  it('fails the build when no bundle holds no-startup.ts, and not when one does', async () => {
    const missed = prismOffStartup({ siteDir });
    configure(missed).finish(languages);
    await expect(postBuild(missed)).rejects.toThrow(/no-startup\.ts did not replace it/);

    const met = prismOffStartup({ siteDir });
    configure(met).finish(empty);
    await expect(postBuild(met)).resolves.toBeUndefined();
  });
});

describe('the Prism-on-server-only plugin', () => {
  const onServer = join(siteDir, 'src', 'prism', 'on-server.ts');
  const notInBrowser = join(siteDir, 'src', 'prism', 'not-in-browser.ts');

  it("puts src/prism/not-in-browser.ts in the place of src/prism/on-server.ts in the browser's bundle, not the server's", () => {
    const browser = configure(prismOnServerOnly({ siteDir }));
    expect(browser.rules).toHaveLength(1);
    const [{ pattern, replace }] = browser.rules;
    expect(pattern.test(onServer)).toBe(true);
    expect(pattern.test(join(siteDir, 'src', 'prism', 'highlighted.tsx'))).toBe(false);
    const data = { createData: { resource: onServer } };
    replace(data);
    expect(data.createData.resource).toBe(notInBrowser);
    // The server's bundle keeps the highlighted block.
    const server = prismOnServerOnly({ siteDir }).configureWebpack;
    // @ts-expect-error: only what the plugin reads of the bundler's config and utilities
    expect(server?.({}, true, {}, {})).toEqual({});
  });

  it("fails the build when the browser's bundle holds on-server.ts instead", async () => {
    const missed = prismOnServerOnly({ siteDir });
    configure(missed).finish(onServer);
    await expect(postBuild(missed)).rejects.toThrow(/not-in-browser\.ts did not replace it/);

    const met = prismOnServerOnly({ siteDir });
    configure(met).finish(notInBrowser);
    await expect(postBuild(met)).resolves.toBeUndefined();
  });
});
