import type { ReactNode } from 'react';
import Head from '@docusaurus/Head';
import Root from '@theme-original/Root';
import type RootType from '@theme/Root';
import type { WrapperProps } from '@docusaurus/types';
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2';

import { AuthProvider } from '@site/src/auth/AuthProvider';

type Props = WrapperProps<typeof RootType>;

// (CUSTOM) Root never unmounts, so the reader's session is loaded once per page load and
// shared by the navbar and the login page. No Firebase code here: it ships with /login only.
// It also preloads the body font, the same file src/css/custom.css names, so the text is
// set in Inter from the first paint instead of swapping later (the font is `optional`).
export default function RootWrapper(props: Props): ReactNode {
  return (
    <AuthProvider>
      <Head>
        <link rel="preload" href={interLatin} as="font" type="font/woff2" crossOrigin="anonymous" />
      </Head>
      <Root {...props} />
    </AuthProvider>
  );
}
