import { usePluginData } from '@docusaurus/useGlobalData';

import type { ProjectRelease, ReleasesData } from '@site/src/plugins/releases/releases';

export type { ProjectRelease };

/** The latest release of every documented project, newest first (the `portal-releases` plugin). */
export function useReleases(): readonly ProjectRelease[] {
  return (usePluginData('portal-releases') as ReleasesData).releases;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `2025-09-16` → `16 Sep 2025`, the same on the server and in every browser (no locale or
 * time zone enters, so hydration never disagrees).
 */
export function formatReleaseDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  if (!year || !month || !day || month > 12) return isoDate;
  return `${day} ${MONTHS[month - 1]} ${year}`;
}
