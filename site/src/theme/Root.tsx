import type { ReactNode } from 'react';
import Root from '@theme-original/Root';
import type RootType from '@theme/Root';
import type { WrapperProps } from '@docusaurus/types';

import { AuthProvider } from '@site/src/auth/AuthProvider';

type Props = WrapperProps<typeof RootType>;

// (CUSTOM) Root never unmounts, so the reader's session is loaded once per page load and
// shared by the navbar and the login page. No Firebase code here: it ships with /login only.
export default function RootWrapper(props: Props): ReactNode {
  return (
    <AuthProvider>
      <Root {...props} />
    </AuthProvider>
  );
}
