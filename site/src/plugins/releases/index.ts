import { join } from 'node:path';

import type { LoadContext, Plugin } from '@docusaurus/types';

import { readReleases, type ReleasesData } from './releases';

/**
 * `portal-releases`: the latest release of every documented project, from the changelogs
 * (releases.ts), as global data for the home page's "What's new" and version badges.
 * Only what the public announcement bar already says reaches the page: a project's name,
 * version, date, the size of each section and the link; the release notes stay on the
 * gated changelog pages.
 */
export default function releasesPlugin(context: LoadContext): Plugin<ReleasesData> {
  const docsDir = join(context.siteDir, 'docs');
  return {
    name: 'portal-releases',
    loadContent: () => readReleases(docsDir),
    contentLoaded({ content, actions }) {
      actions.setGlobalData(content);
    },
    getPathsToWatch: () => [join(docsDir, '*', 'CHANGELOG.md')],
  };
}
