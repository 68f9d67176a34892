import { useEffect, useState } from 'react';
import { usePluginData } from '@docusaurus/useGlobalData';

import type { PackageSourcesData } from '../plugins/package-sources';
import { preferenceKey, preferredVersion, type PackageVersions } from './versions';

export function usePackages(): readonly PackageVersions[] {
  return (usePluginData('portal-package-sources') as PackageSourcesData | undefined)?.packages ?? [];
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
