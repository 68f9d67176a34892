import { useLocation } from '@docusaurus/router';
import DropdownNavbarItem from '@theme/NavbarItem/DropdownNavbarItem';

import { usePackages } from '@site/src/packages/usePackages';
import { pathIn, placeOf, rememberVersion } from '@site/src/packages/versions';

interface Props {
  mobile?: boolean;
  position?: 'left' | 'right';
}

/**
 * The version menu of the package the reader is in (nothing elsewhere): each published
 * version, leading to the same page in it or to its landing page, and kept as the reader's
 * choice for that package.
 */
export default function PackageVersionMenu({ mobile, position }: Props): React.JSX.Element | null {
  const { pathname } = useLocation();
  const place = placeOf(pathname, usePackages());
  if (!place) return null;
  const { pkg, version } = place;
  const items = pkg.versions.map((candidate) => ({
    label: candidate.version === pkg.latest ? `${candidate.version} (newest)` : candidate.version,
    to: pathIn(place, candidate.version),
    isActive: () => candidate.version === version.version,
    onClick: () => {
      rememberVersion(pkg, candidate.version, window.localStorage);
      window.dispatchEvent(new Event('portal:package-version'));
    },
  }));
  return (
    <DropdownNavbarItem
      mobile={mobile}
      position={position}
      label={`v${version.version}`}
      aria-label={`${pkg.title} version ${version.version}: choose another`}
      items={items}
      className="portal-package-version"
    />
  );
}
