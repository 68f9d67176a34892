// Peer build "client-guard": the page renders nothing until the Firebase SDK has said who
// the reader is; a signed-out reader on a private page is then sent to /login.
import { useEffect, useState, type ReactNode } from 'react';
import Head from '@docusaurus/Head';
import Root from '@theme-original/Root';
import type RootType from '@theme/Root';
import type { WrapperProps } from '@docusaurus/types';
import { useLocation } from '@docusaurus/router';
import { onAuthStateChanged, type User } from 'firebase/auth';
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2';
import { isPublicRoute, loginUrlFor } from '@portal/access';

import { AuthProvider } from '@site/src/auth/AuthProvider';
import { getPortalAuth } from '@site/src/auth/client-guard-firebase';

type Props = WrapperProps<typeof RootType>;

export default function RootWrapper(props: Props): ReactNode {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const { pathname, search } = useLocation();
  useEffect(() => onAuthStateChanged(getPortalAuth(), setUser), []);
  const allowed = user !== undefined && (user !== null || isPublicRoute(pathname));
  useEffect(() => {
    if (user === null && !isPublicRoute(pathname)) window.location.replace(loginUrlFor(pathname + search));
  }, [user, pathname, search]);
  // The portal's font preload, so the peer differs from the portal in its guard only.
  const preload = (
    <Head>
      <link rel="preload" href={interLatin} as="font" type="font/woff2" crossOrigin="anonymous" />
    </Head>
  );
  if (!allowed) return preload;
  return (
    <AuthProvider user={user}>
      {preload}
      <Root {...props} />
    </AuthProvider>
  );
}
