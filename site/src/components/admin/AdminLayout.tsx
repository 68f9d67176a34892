import type { ReactNode } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';

import styles from './admin.module.css';

/**
 * The frame of the administration pages. They are for the `admin` group only: the gate
 * serves their HTML and code to administrators alone (the policy's administration section),
 * and the API behind them checks again on every call.
 */
export default function AdminLayout({
  title,
  current,
  children,
}: {
  title: string;
  current: 'readers' | 'organisations' | 'requests' | 'insights';
  children: ReactNode;
}): React.JSX.Element {
  return (
    <Layout title={title} description="Readers, groups, the audit trail and reading insights of the portal." noFooter>
      <main className={clsx('container', styles.page)}>
        <Heading as="h1">Administration</Heading>
        <nav className={styles.tabs} aria-label="Administration">
          <Link className={styles.tab} to="/admin" aria-current={current === 'readers' ? 'page' : undefined}>
            Readers and audit trail
          </Link>
          <Link className={styles.tab} to="/admin/requests" aria-current={current === 'requests' ? 'page' : undefined}>
            Access requests
          </Link>
          <Link className={styles.tab} to="/admin/insights" aria-current={current === 'insights' ? 'page' : undefined}>
            Insights
          </Link>
          <Link
            className={styles.tab}
            to="/admin/organisations"
            aria-current={current === 'organisations' ? 'page' : undefined}
          >
            Organisations
          </Link>
        </nav>
        {children}
      </main>
    </Layout>
  );
}
