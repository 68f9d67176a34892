import { useState } from 'react';
import clsx from 'clsx';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';

import MyRequestsPanel from '@site/src/components/access-requests/MyRequestsPanel';
import AccountSummary from '@site/src/components/account/AccountSummary';
import ConnectedAppsPanel from '@site/src/components/account/ConnectedAppsPanel';
import TokensPanel from '@site/src/components/account/TokensPanel';
import styles from '@site/src/components/account/account.module.css';

/** `/account`: the signed-in reader's e-mail and groups, their personal access tokens, connected apps and access requests. */
export default function AccountPage(): React.JSX.Element {
  // The connected apps come below the tokens once these have their height, so the tokens
  // panel growing from its loading line to its form never pushes the apps panel down.
  const [tokensSettled, setTokensSettled] = useState(false);
  return (
    <Layout title="Your account" description="Your e-mail, your reader groups and your personal access tokens.">
      <main className={clsx('container', styles.page)}>
        <Heading as="h1">Your account</Heading>
        <AccountSummary />
        <TokensPanel onSettled={() => setTokensSettled(true)} />
        {tokensSettled && <ConnectedAppsPanel />}
        {tokensSettled && <MyRequestsPanel />}
      </main>
    </Layout>
  );
}
