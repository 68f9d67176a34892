import Link from '@docusaurus/Link';
import { useLocation } from '@docusaurus/router';
import DocVersionBanner from '@theme-original/DocVersionBanner';
import type DocVersionBannerType from '@theme/DocVersionBanner';
import type { WrapperProps } from '@docusaurus/types';

import { useInArchive, usePackages } from '@site/src/packages/usePackages';
import { pathIn, placeOf, rememberVersion } from '@site/src/packages/versions';

type Props = WrapperProps<typeof DocVersionBannerType>;

// (CUSTOM) A page of an older version of a synced package says so, and leads to the same
// page in the newest; rendered on the server, so it moves nothing when the page starts. It
// does not name the newest version (the version menu does, in the browser): an older
// release's pages stay the same when a newer one is published (PackageVersionMenu).
export default function DocVersionBannerWrapper(props: Props): React.JSX.Element {
  const { pathname } = useLocation();
  const packages = usePackages();
  // Also rendered by generated category pages, outside any doc: the path alone says where it is.
  const place = placeOf(pathname, packages);
  // Every page of a release archive is of an older release, the newest's own included once a
  // newer one is out; until its page has read the versions of now, it leads to the section.
  const inArchive = useInArchive();
  const older = place && (inArchive || place.version.version !== place.pkg.latest) ? place : null;
  const newest = older && older.version.version !== older.pkg.latest ? pathIn(older, older.pkg.latest) : null;
  return (
    <>
      {older && (
        <div className="alert alert--warning margin-bottom--md" role="note">
          This is the documentation of {older.pkg.title} <strong>{older.version.version}</strong>, an older release: see{' '}
          <Link
            to={newest ?? older.pkg.basePath}
            onClick={() => {
              rememberVersion(older.pkg, older.pkg.latest, window.localStorage);
              window.dispatchEvent(new Event('portal:package-version'));
            }}
          >
            the newest release
          </Link>
          .
        </div>
      )}
      <DocVersionBanner {...props} />
    </>
  );
}
