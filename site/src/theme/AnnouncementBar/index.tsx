import AnnouncementBar from '@theme-original/AnnouncementBar';
import type AnnouncementBarType from '@theme/AnnouncementBar';
import type { WrapperProps } from '@docusaurus/types';

import LicenceBanner from '@site/src/components/LicenceBanner';

type Props = WrapperProps<typeof AnnouncementBarType>;

// (CUSTOM) The licence banner goes where Docusaurus puts the announcement bar: above the navbar.
export default function AnnouncementBarWrapper(props: Props): React.JSX.Element {
  return (
    <>
      <LicenceBanner />
      <AnnouncementBar {...props} />
    </>
  );
}
