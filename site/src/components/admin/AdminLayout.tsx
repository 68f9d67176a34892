import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';

import styles from './admin.module.css';

/**
 * The administration pages, one tab each: the one tab bar of `/admin`. A new page is one
 * line here and its file in `site/src/pages/admin/` (under `/admin`, so the policy's
 * administration section keeps it for administrators).
 */
const TABS = [
  { id: 'readers', to: '/admin', label: 'Readers' },
  { id: 'organisations', to: '/admin/organisations', label: 'Organisations' },
  { id: 'requests', to: '/admin/requests', label: 'Access requests' },
  { id: 'audit', to: '/admin/audit', label: 'Audit trail' },
  { id: 'tokens', to: '/admin/tokens', label: 'Tokens and apps' },
  { id: 'sources', to: '/admin/sources', label: 'Package sources' },
  { id: 'insights', to: '/admin/insights', label: 'Insights' },
] as const;

export type AdminTab = (typeof TABS)[number]['id'];

/** The address of an administration page. */
export const adminPath = (tab: AdminTab): string => TABS.find((candidate) => candidate.id === tab)?.to ?? '/admin';

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
  current: AdminTab;
  children: ReactNode;
}): React.JSX.Element {
  return (
    <Layout title={title} description="Readers, groups, the audit trail and reading insights of the portal." noFooter>
      <main className={`container ${styles.page}`}>
        <Heading as="h1">Administration</Heading>
        <nav className={styles.tabs} aria-label="Administration">
          {TABS.map((tab) => (
            <Link
              key={tab.id}
              className={styles.tab}
              to={tab.to}
              aria-current={current === tab.id ? 'page' : undefined}
            >
              {tab.label}
            </Link>
          ))}
        </nav>
        {children}
      </main>
    </Layout>
  );
}
