import { accessUnits, mayRead } from '@portal/access';

import type { Site } from './site.js';

/** What the portal is, as it introduces itself to assistants (llms.txt, MCP, the discovery document). */
export const SITE_NAME = 'Norigin Developer Docs';
export const SITE_SUMMARY =
  "Documentation of Norigin Media's TV front-end packages: the player manager with its player and tracking adapters, the UI toolkit, Norigin Spatial Navigation, the layout engine, the whitelabel setup, the reference and demo apps, and the front-end team's guidelines.";

/** The llms.txt fragments (the build's, one per unit) a reader may read, in the policy's unit order; null units: anonymous. */
export function llmsFragments(site: Site, units: readonly string[] | null, which: 'index' | 'full'): string[] {
  return accessUnits()
    .filter((unit) => mayRead(units, unit.readers))
    .map((unit) => site.lookup(`/llms/${unit.id}/${which}.md`)?.bodies.identity?.toString('utf8') ?? '')
    .filter((text) => text.trim() !== '');
}

/**
 * A fragment with the portal's own links made absolute at `origin` (llms.txt's links, and the
 * `Source:` line that names each page of llms-full.txt): an assistant reads them out of context.
 */
export const absoluteLinks = (text: string, origin: string): string =>
  text.replace(/(\]\(|^Source: )\//gm, `$1${origin}/`);
