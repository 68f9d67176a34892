import { policy, sectionOf } from '@portal/access';

import type { Site, SiteFile } from './site.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of an HTML title: entities decoded, the site's name after its delimiter taken off. */
export function titleOfHtml(html: string): string | null {
  const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html);
  if (!match?.[1]) return null;
  const text = match[1]
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&(\w+);/g, (entity, name: string) => ENTITIES[name] ?? entity)
    .trim();
  // Docusaurus writes "Page | Site": the page's own part; the home page is the site's name alone.
  const cut = text.lastIndexOf(' | ');
  return (cut > 0 ? text.slice(0, cut) : text) || null;
}

export interface PageDescription {
  path: string;
  title: string;
  unit: string | null;
  unitLabel: string | null;
}

const unitLabels = new Map(policy.units.map((unit) => [unit.name, unit.label]));

/** A page as the insights name it: its title (its path when it has none), its unit and the unit's label. */
export function describePage(file: Pick<SiteFile, 'url' | 'bodies'>): PageDescription {
  const html = file.bodies.identity?.toString('utf8') ?? '';
  const unit = sectionOf(file.url);
  return {
    path: file.url,
    title: titleOfHtml(html) ?? file.url,
    unit,
    unitLabel: unit === null ? null : unit === 'public' ? 'Open to everyone' : (unitLabels.get(unit) ?? unit),
  };
}

/** The files for assistants that reads are counted on besides pages (routes/llms.ts), named as readers would say. */
const AGENT_FILES: readonly PageDescription[] = [
  { path: '/llms.txt', title: 'llms.txt: the list of pages', unit: null, unitLabel: 'For coding assistants' },
  {
    path: '/llms-full.txt',
    title: 'llms-full.txt: every page as text',
    unit: null,
    unitLabel: 'For coding assistants',
  },
];

/** Every page of a build described once: the build is replaced whole, so its id keys the answer. */
const described = new WeakMap<object, { id: string; pages: PageDescription[] }>();
export function describeSite(site: Site): PageDescription[] {
  const known = described.get(site);
  if (known?.id === site.id) return known.pages;
  const pages = [
    ...site.pages.flatMap((page) => {
      const file = site.lookup(page.url);
      return file ? [describePage(file)] : [];
    }),
    ...AGENT_FILES,
  ];
  described.set(site, { id: site.id, pages });
  return pages;
}
