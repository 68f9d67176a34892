import type { ReactNode } from 'react';
import Head from '@docusaurus/Head';
import Root from '@theme-original/Root';
import type RootType from '@theme/Root';
import type { WrapperProps } from '@docusaurus/types';
// Written by src/plugins/font-subsets at build time: the body font's core characters and weights.
import interCore from '@generated/font-subsets/inter-core.woff2';

import { AuthProvider } from '@site/src/auth/AuthProvider';

type Props = WrapperProps<typeof RootType>;

// (CUSTOM) Root never unmounts, so the reader's session is loaded once per page load and
// shared by the navbar and the login page. No Firebase code here: it ships with /login only.
// It also preloads the body font, the same core file the font-subsets plugin's stylesheet
// names, so the text is usually set in Inter from the first paint (the font is `swap`, and
// its fallback is sized to Inter's metrics, so a late arrival moves nothing). Only this one:
// the largest text of every page is set in it; code's font loads when a page has code.
export default function RootWrapper(props: Props): ReactNode {
  return (
    <AuthProvider>
      <Head>
        <link rel="preload" href={interCore} as="font" type="font/woff2" crossOrigin="anonymous" />
      </Head>
      <Root {...props} />
    </AuthProvider>
  );
}
