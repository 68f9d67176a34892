import { useState } from 'react';
import clsx from 'clsx';
import { useLocation } from '@docusaurus/router';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';

import MyRequestsPanel from '@site/src/components/access-requests/MyRequestsPanel';
import AccessPanel from '@site/src/components/account/AccessPanel';
import AccountSummary from '@site/src/components/account/AccountSummary';
import ConnectedAppsPanel from '@site/src/components/account/ConnectedAppsPanel';
import TokensPanel from '@site/src/components/account/TokensPanel';
import styles from '@site/src/components/account/account.module.css';

/**
 * `/account`: the signed-in reader's e-mail and groups, what they can read and why, their
 * personal access tokens, connected apps and access requests. `?welcome=1` is where a new
 * reader lands after choosing their first password (/login/action).
 */
export default function AccountPage(): React.JSX.Element {
  // The connected apps come below the tokens once these have their height, so the tokens
  // panel growing from its loading line to its form never pushes the apps panel down.
  const [tokensSettled, setTokensSettled] = useState(false);
  const welcome = new URLSearchParams(useLocation().search).get('welcome') === '1';
  return (
    <Layout title="Your account" description="Your e-mail, what you can read and your personal access tokens.">
      <main className={clsx('container', styles.page)}>
        <Heading as="h1">Your account</Heading>
        {welcome && (
          <div role="status" className={clsx('alert alert--success', styles.welcome)}>
            Welcome to the Norigin Developer Docs. Your password is set and you are signed in: below is what you can
            read.
          </div>
        )}
        <AccountSummary />
        <TokensPanel onSettled={() => setTokensSettled(true)} />
        {tokensSettled && <ConnectedAppsPanel />}
        {tokensSettled && <MyRequestsPanel />}
        {/* Last: its list grows when it loads, and moves nothing below it. */}
        {tokensSettled && <AccessPanel />}
      </main>
    </Layout>
  );
}
