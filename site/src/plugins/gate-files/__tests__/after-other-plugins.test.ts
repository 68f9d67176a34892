import type { Plugin } from '@docusaurus/types';
import { describe, expect, it } from 'vitest';

import { afterOtherPostBuilds } from '../after-other-plugins';

type PostBuild = NonNullable<Plugin['postBuild']>;
type Props = Parameters<PostBuild>[0];

/** Runs the plugins' postBuilds the way Docusaurus 3.10 does: all started at once, in order. */
function runPostBuilds(plugins: { name: string; postBuild?: PostBuild }[]): Promise<unknown> {
  return Promise.all(plugins.map(async (plugin) => plugin.postBuild && (await plugin.postBuild({} as Props))));
}

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("waiting for the other plugins' postBuild", () => {
  it('starts its own work only once every other postBuild has finished', async () => {
    const events: string[] = [];
    const plugins: { name: string; postBuild?: PostBuild }[] = [];
    const own: PostBuild = async () => {
      await afterOtherPostBuilds(plugins, own);
      events.push('manifest');
    };
    plugins.push(
      { name: 'gate-files', postBuild: own },
      {
        name: 'sitemap',
        postBuild: async () => {
          await later(30);
          events.push('sitemap');
        },
      },
      { name: 'pages' },
      {
        name: 'blog',
        postBuild: async () => {
          await later(10);
          events.push('feeds');
        },
      },
    );
    await runPostBuilds(plugins);
    expect(events).toHaveLength(3);
    expect(events.at(-1)).toBe('manifest');
  });

  it('fails when the others had started before it', async () => {
    const plugins: { name: string; postBuild?: PostBuild }[] = [];
    const own: PostBuild = async () => afterOtherPostBuilds(plugins, own);
    plugins.push({ name: 'sitemap', postBuild: () => later(5) }, { name: 'gate-files', postBuild: own });
    await expect(runPostBuilds(plugins)).rejects.toThrow(
      /portal-gate-files must start its postBuild before the other plugins' \(sitemap\)/,
    );
  });
});
