/**
 * The marks of a link in a page's text that leads to a page not everyone may read: the
 * units it needs, and the reason a locked link gives on hover and focus, in the words the
 * sidebar and the refusal page use for those units (packages/access). The lock itself is
 * the site's stylesheet (src/plugins/access-marks.ts), drawn only for a reader who holds
 * none of the units; the build lists the links each unit's readers meet locked
 * (src/plugins/locked-links.ts).
 */
import { policy, PUBLIC, readersOf } from '@portal/access';

import { internalPath } from './item-marks';

export interface LockedLinkData {
  'data-units': string;
  'data-locked-in': string;
  'data-locked-out': string;
}

const labelOf = (unit: string): string => policy.units.find((entry) => entry.name === unit)?.label ?? unit;

/** The marks of a link to `href`, or none for a public page, an outside address or no page. */
export function lockedLinkData(href: string, readersOfPath = readersOf): LockedLinkData | Record<string, never> {
  const path = internalPath(href);
  const readers = path === null ? null : readersOfPath(path);
  if (readers === null || readers === PUBLIC || readers.length === 0) return {};
  const names = readers.map(labelOf).join(', ');
  return {
    'data-units': readers.join(' '),
    'data-locked-in': `Locked: this page is part of ${names}, which you cannot read.`,
    'data-locked-out': `Sign in to read this page (part of ${names}).`,
  };
}
