import AnnouncementBar from '@theme-original/AnnouncementBar';
import type AnnouncementBarType from '@theme/AnnouncementBar';
import type { WrapperProps } from '@docusaurus/types';

import LicenceBanner from '@site/src/components/LicenceBanner';

type Props = WrapperProps<typeof AnnouncementBarType>;

// (CUSTOM) The licence banner is rendered with the announcement bar, on every page (it shows at the window's foot).
export default function AnnouncementBarWrapper(props: Props): React.JSX.Element {
  return (
    <>
      <LicenceBanner />
      <AnnouncementBar {...props} />
    </>
  );
}
