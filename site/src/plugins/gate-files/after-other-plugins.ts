import type { Plugin } from '@docusaurus/types';

type PostBuild = NonNullable<Plugin['postBuild']>;

/**
 * Docusaurus starts every plugin's postBuild at once, in the plugins' order, and the
 * sitemap and the blog feeds are written there. Called first thing in the first plugin's
 * postBuild, this takes hold of every other plugin's postBuild before Docusaurus starts
 * it and settles when all of them have finished. It fails, rather than let the manifest
 * miss their files, when they had started already.
 */
export async function afterOtherPostBuilds(
  plugins: readonly { name: string; postBuild?: PostBuild }[],
  self: PostBuild,
): Promise<void> {
  const others = plugins.filter((plugin) => plugin.postBuild !== undefined && plugin.postBuild !== self);
  const originals = new Map(others.map((plugin) => [plugin, plugin.postBuild as PostBuild]));
  const started: Promise<void>[] = [];
  for (const [plugin, original] of originals) {
    plugin.postBuild = function (this: unknown, props) {
      plugin.postBuild = original;
      const run = Promise.resolve(original.call(this, props));
      started.push(run);
      return run;
    };
  }
  // Docusaurus starts the others synchronously once this postBuild yields.
  await Promise.resolve();
  if (started.length !== others.length) {
    for (const [plugin, original] of originals) plugin.postBuild = original;
    throw new Error(
      `portal-gate-files must start its postBuild before the other plugins' (${others.map((p) => p.name).join(', ')}) ` +
        'to list the files they write: load it through its preset, first in the presets of docusaurus.config.ts.',
    );
  }
  await Promise.allSettled(started);
}
