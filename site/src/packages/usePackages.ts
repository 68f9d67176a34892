import { useEffect, useState } from 'react';
import { usePluginData } from '@docusaurus/useGlobalData';

import type { PackageSourcesData } from '../plugins/package-sources';
import { preferenceKey, preferredVersion, type PackageVersions, versionsUrl } from './versions';

const NONE: readonly PackageVersions[] = [];

/** Each package's versions as the portal's build has them now, read once per page load. */
const current = new Map<string, Promise<PackageVersions | null>>();
function currentVersions(pkg: PackageVersions): Promise<PackageVersions | null> {
  let read = current.get(pkg.id);
  if (!read) {
    read = fetch(versionsUrl(pkg.basePath), { credentials: 'same-origin' })
      .then((response) => (response.ok ? (response.json() as Promise<PackageVersions>) : null))
      .catch(() => null);
    current.set(pkg.id, read);
  }
  return read;
}

/**
 * The synced packages and their versions. A release archive's app (src/archives) was built
 * with the versions of its day: once the page has loaded, it takes them from the portal's
 * build, so its version menu lists the releases published since. The first render is the
 * built data's, as on the server.
 */
export function usePackages(): readonly PackageVersions[] {
  const data = usePluginData('portal-package-sources') as PackageSourcesData | undefined;
  const built = data?.packages ?? NONE;
  const [packages, setPackages] = useState(built);
  useEffect(() => {
    if (!data?.archive) return undefined;
    let live = true;
    void Promise.all(built.map(currentVersions)).then((read) => {
      if (live) setPackages(read.map((pkg, index) => pkg ?? (built[index] as PackageVersions)));
    });
    return () => {
      live = false;
    };
  }, [built, data?.archive]);
  return packages;
}

/** Whether this page is of a release archive's app (src/archives): every page of it is of an older release. */
export function useInArchive(): boolean {
  return (usePluginData('portal-package-sources') as PackageSourcesData | undefined)?.archive === true;
}

/**
 * The reader's chosen version of each package, read after hydration (the server knows no
 * choice, so the first render matches it) and kept in step with other tabs.
 */
export function useChosenVersions(packages: readonly PackageVersions[]): (pkg: PackageVersions) => string | null {
  const [chosen, setChosen] = useState<Record<string, string | null>>({});
  useEffect(() => {
    const read = () =>
      setChosen(Object.fromEntries(packages.map((pkg) => [pkg.id, preferredVersion(pkg, window.localStorage)])));
    read();
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || packages.some((pkg) => event.key === preferenceKey(pkg.id))) read();
    };
    window.addEventListener('storage', onStorage);
    window.addEventListener('portal:package-version', read);
    return () => {
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('portal:package-version', read);
    };
  }, [packages]);
  return (pkg) => chosen[pkg.id] ?? null;
}
