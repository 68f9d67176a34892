/**
 * Which synced package and version a page belongs to, and where the same page is in another
 * version, for the version menu, the older-version banner and the sidebar's links. The data
 * is the `portal-package-sources` plugin's (src/plugins/package-sources).
 */
import type { PackageVersions } from '../plugins/package-sources/materialise';

export type { PackageVersions };

export interface PackagePlace {
  pkg: PackageVersions;
  /** The version whose pages the path is in; the section's own pages (the release history) are the newest's. */
  version: PackageVersions['versions'][number];
  /** The path below the version's folder (`''` for its landing page). */
  page: string;
}

/** Where the portal's build leaves a package's versions (its `PackageVersions`), in its section. */
export function versionsUrl(basePath: string): string {
  return `${basePath}versions.json`;
}

/** The local-storage key of a package's chosen version (the specification's `docs-preferred-version-*`). */
export function preferenceKey(id: string): string {
  return `docs-preferred-version-${id}`;
}

/**
 * The package and version a path is in. Paths match whatever their case and trailing slash
 * (the gate serves `/docs/x/changelog/` as `/docs/X/CHANGELOG`), and the page is the
 * version's own spelling where it has one, so a page renders the same on the server and
 * in the browser.
 */
export function placeOf(pathname: string, packages: readonly PackageVersions[]): PackagePlace | null {
  const path = (pathname.endsWith('/') ? pathname : `${pathname}/`).toLowerCase();
  const pkg = packages.find((candidate) => path.startsWith(candidate.basePath.toLowerCase()));
  if (!pkg) return null;
  // The longest folder that holds the path: /docs/x/2.3.0/ before /docs/x/.
  const version = [...pkg.versions]
    .filter((candidate) => path.startsWith(candidate.path.toLowerCase()))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (!version) return null;
  const typed = pathname.slice(version.path.length).replace(/\/$/, '');
  const page = version.pages.find((candidate) => candidate.toLowerCase() === typed.toLowerCase()) ?? typed;
  return { pkg, version, page };
}

/** The same page in `version`, or its landing page when that version has no such page. */
export function pathIn(place: PackagePlace, version: string): string {
  const target = place.pkg.versions.find((candidate) => candidate.version === version);
  if (!target) return place.pkg.basePath;
  const page = target.pages.find((candidate) => candidate.toLowerCase() === place.page.toLowerCase());
  return page === undefined ? target.path : target.path + page;
}

/** The version stored as the reader's choice, when the package still has it. */
export function preferredVersion(pkg: PackageVersions, storage: Pick<Storage, 'getItem'> | undefined): string | null {
  let stored: string | null = null;
  try {
    stored = storage?.getItem(preferenceKey(pkg.id)) ?? null;
  } catch {
    return null; // storage refused (private mode, a sandboxed frame)
  }
  return pkg.versions.some((candidate) => candidate.version === stored) ? stored : null;
}

export function rememberVersion(
  pkg: PackageVersions,
  version: string,
  storage: Pick<Storage, 'setItem'> | undefined,
): void {
  try {
    storage?.setItem(preferenceKey(pkg.id), version);
  } catch {
    // The choice is not kept; the menu still took the reader there.
  }
}

/** The package whose newest landing page a link leads to. */
export function packageOfHref(href: string, packages: readonly PackageVersions[]): PackageVersions | undefined {
  return packages.find((candidate) => candidate.basePath === href || candidate.basePath === `${href}/`);
}

/** Where a link to a package's landing page goes for a reader who chose a version (the sidebar's entry). */
export function preferredHref(
  href: string,
  packages: readonly PackageVersions[],
  chosen: (pkg: PackageVersions) => string | null,
): string {
  const pkg = packageOfHref(href, packages);
  if (!pkg) return href;
  const version = chosen(pkg);
  const target = version && pkg.versions.find((candidate) => candidate.version === version);
  return target ? target.path : href;
}
