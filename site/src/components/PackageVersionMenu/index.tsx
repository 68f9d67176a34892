import { useLocation } from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
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
 * choice for that package; then the release history.
 *
 * The list of versions is filled in the browser, from the site's data, as Read the Docs
 * fills its version menu: a page's HTML names only its own version and the release
 * history, so the pages of older releases stay byte for byte the same when a newer release
 * is published, and a rebuild after a release converts, indexes and compresses again only
 * the pages that changed. The menu's items are hidden until it opens, so filling them
 * moves nothing.
 */
export default function PackageVersionMenu({ mobile, position }: Props): React.JSX.Element | null {
  const { pathname } = useLocation();
  const place = placeOf(pathname, usePackages());
  const isBrowser = useIsBrowser();
  if (!place) return null;
  const { pkg, version } = place;
  const versions = isBrowser ? pkg.versions : [];
  const items = [
    ...versions.map((candidate) => ({
      label: candidate.version === pkg.latest ? `${candidate.version} (newest)` : candidate.version,
      to: pathIn(place, candidate.version),
      isActive: () => candidate.version === version.version,
      onClick: () => {
        rememberVersion(pkg, candidate.version, window.localStorage);
        window.dispatchEvent(new Event('portal:package-version'));
      },
    })),
    { label: 'All releases', to: `${pkg.basePath}CHANGELOG` },
  ];
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
