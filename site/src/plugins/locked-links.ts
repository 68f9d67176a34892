/**
 * `locked-links`: after a build, the links in pages' text that lead the readers of a page to
 * a page they may not read, per unit of the page they are on (a partner licensed for the
 * Shaka adapter, reading its page, meets its links into the internal guidelines locked), so
 * that authors can fix them. Printed in the build's output, and written whole to
 * `.docusaurus/locked-links.json` (never served).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { LoadContext, Plugin } from '@docusaurus/types';
import { ALL_UNITS, type CompiledPolicy, policy, PUBLIC, type Readers, readersOf } from '@portal/access';

/** One link that some readers of the page it is on may not follow. */
export interface LockedLink {
  from: string;
  to: string;
  /** The units the page it leads to needs. */
  needs: string[];
}

/** The marked links of a page's HTML (src/access/link-locks.ts): their targets and units. */
export function markedLinks(html: string): { to: string; needs: string[] }[] {
  // The build minifies its HTML: an attribute's value is quoted or not.
  const value = (tag: string, name: string) =>
    new RegExp(`\\s${name}=(?:"([^"]*)"|([^\\s"'>]+))`)
      .exec(tag)
      ?.slice(1)
      .find((part) => part !== undefined);
  const links: { to: string; needs: string[] }[] = [];
  for (const [tag] of html.matchAll(/<a\s[^>]*data-units=[^>]*>/g)) {
    const to = value(tag, 'href');
    const needs = value(tag, 'data-units')?.split(' ').filter(Boolean) ?? [];
    if (to !== undefined && needs.length > 0) links.push({ to: to.split('#')[0] ?? to, needs });
  }
  return links;
}

/**
 * Whether some reader of unit `own` (or of a public page, `own` = `public`) may not read a page
 * of the units `needs`: a group that reads `own` but none of them, or, for a unit that is
 * licensed to partners, an organisation licensed for it alone.
 */
export function someReaderMisses(own: string, needs: readonly string[], compiled: CompiledPolicy = policy): boolean {
  if (needs.includes(own)) return false;
  if (own === PUBLIC) return true;
  if (compiled.units.find((unit) => unit.name === own)?.licensable) return true;
  return [...compiled.unitsOfGroup.values()].some(
    (units) =>
      (units.includes(own) || units.includes(ALL_UNITS)) &&
      !units.includes(ALL_UNITS) &&
      !needs.some((unit) => units.includes(unit)),
  );
}

/**
 * The locked links of every page, by the unit whose readers meet them (`public` for a page
 * everyone reads): a link to a page some reader of the page's own unit may not read.
 */
export function lockedLinks(
  pages: readonly { route: string; html: string }[],
  readersOfPath: (path: string) => Readers | null = readersOf,
  misses: (own: string, needs: readonly string[]) => boolean = someReaderMisses,
): Map<string, LockedLink[]> {
  const found = new Map<string, LockedLink[]>();
  for (const { route, html } of pages) {
    const readers = readersOfPath(route);
    if (readers === null) continue;
    const units = readers === PUBLIC ? [PUBLIC] : readers;
    const seen = new Set<string>();
    for (const link of markedLinks(html)) {
      if (seen.has(link.to)) continue;
      seen.add(link.to);
      for (const unit of units) {
        if (!misses(unit, link.needs)) continue;
        const list = found.get(unit) ?? [];
        list.push({ from: route, to: link.to, needs: link.needs });
        found.set(unit, list);
      }
    }
  }
  return found;
}

/** The build's lines: how many per unit, with the first few; the file holds them all. */
export function lockedLinksReport(found: ReadonlyMap<string, readonly LockedLink[]>, shown = 3): string[] {
  const total = [...found.values()].reduce((sum, list) => sum + list.length, 0);
  if (total === 0) return ['Locked links: no page links its readers to a page they may not read.'];
  return [
    `Locked links: ${total} links lead some readers of their page to a page they may not read (shown locked to them):`,
    ...[...found]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([unit, list]) => [
        `  readers of ${unit}: ${list.length}`,
        ...list.slice(0, shown).map((link) => `    ${link.from} → ${link.to} (needs ${link.needs.join(', ')})`),
        ...(list.length > shown ? [`    and ${list.length - shown} more`] : []),
      ]),
  ];
}

export default function lockedLinksPlugin(context: LoadContext): Plugin {
  return {
    name: 'locked-links',
    async postBuild({ routesPaths, outDir }) {
      const pages = await Promise.all(
        [...new Set(routesPaths)]
          .filter((route) => route.startsWith('/docs/') || route.startsWith('/blog'))
          .map(async (route) => {
            const file = join(outDir, route, 'index.html');
            return { route, html: await readFile(file, 'utf8').catch(() => '') };
          }),
      );
      const found = lockedLinks(pages);
      for (const line of lockedLinksReport(found)) console.log(line);
      console.log(`  (every link: ${join(context.generatedFilesDir, 'locked-links.json')})`);
      await writeFile(
        join(context.generatedFilesDir, 'locked-links.json'),
        `${JSON.stringify(Object.fromEntries(found), null, 1)}\n`,
      );
    },
  };
}
