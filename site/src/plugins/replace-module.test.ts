import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Plugin } from '@docusaurus/types';
import { describe, expect, it } from 'vitest';

import noCollatorAtStartup from './no-collator-at-startup';
import stagedStartup from './staged-startup';

const siteDir = join(fileURLToPath(import.meta.url), '..', '..', '..');

type Replace = (data: { createData?: { resource?: string } }) => void;

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
  return { config, rules };
}

const core = createRequire(join(siteDir, 'package.json')).resolve('@docusaurus/core/package.json');
const entry = join(dirname(core), 'lib', 'client', 'clientEntry.js');
const postBuild = (plugin: Plugin) =>
  // @ts-expect-error: postBuild reads nothing of its props
  plugin.postBuild?.({});

describe('the staged start-up plugin', () => {
  it("puts src/startup/client-entry.ts in the place of Docusaurus's client entry, and only there", () => {
    const { config, rules } = configure(stagedStartup({ siteDir }));
    expect(rules).toHaveLength(1);
    const [{ pattern, replace }] = rules;
    expect(pattern.test(entry)).toBe(true);
    // The original, imported under its own name, is not replaced by itself.
    const alias = (config as { resolve: { alias: Record<string, string> } }).resolve.alias;
    expect(alias['@portal/docusaurus-client-entry$']).toBe(`${entry}?original`);
    expect(pattern.test(alias['@portal/docusaurus-client-entry$'])).toBe(false);
    expect(pattern.test(join(siteDir, 'src', 'theme', 'Root.tsx'))).toBe(false);
    const data = { createData: { resource: entry } };
    replace(data);
    expect(data.createData.resource).toBe(join(siteDir, 'src', 'startup', 'client-entry.ts'));
  });

  it('leaves the server bundle alone', () => {
    const { config, rules } = configure(stagedStartup({ siteDir }), true);
    expect(rules).toHaveLength(0);
    expect(config).toEqual({});
  });

  it('fails the build when the client bundle never met the entry, and not when it did', async () => {
    const missed = stagedStartup({ siteDir });
    configure(missed);
    await expect(postBuild(missed)).rejects.toThrow(/did not replace it/);

    const met = stagedStartup({ siteDir });
    configure(met).rules[0].replace({ createData: { resource: entry } });
    await expect(postBuild(met)).resolves.toBeUndefined();
  });
});

describe('the no-collator plugin', () => {
  const themeCommon = createRequire(join(siteDir, 'package.json')).resolve('@docusaurus/theme-common');
  const reactUtils = join(dirname(themeCommon), 'utils', 'reactUtils.js');

  it("puts src/startup/shallow-memo.ts in the place of theme-common's reactUtils, in both bundles", () => {
    for (const isServer of [false, true]) {
      const { config, rules } = configure(noCollatorAtStartup({ siteDir }), isServer);
      const [{ pattern, replace }] = rules;
      expect(pattern.test(reactUtils)).toBe(true);
      const alias = (config as { resolve: { alias: Record<string, string> } }).resolve.alias;
      expect(alias['@portal/theme-common-react-utils$']).toBe(`${reactUtils}?original`);
      expect(pattern.test(alias['@portal/theme-common-react-utils$'])).toBe(false);
      const data = { createData: { resource: reactUtils } };
      replace(data);
      expect(data.createData.resource).toBe(join(siteDir, 'src', 'startup', 'shallow-memo.ts'));
    }
  });

  it('fails the build when no bundle met reactUtils', async () => {
    const missed = noCollatorAtStartup({ siteDir });
    configure(missed);
    await expect(postBuild(missed)).rejects.toThrow(/shallow-memo\.ts did not replace it/);
  });
});
