import { useState } from 'react';

import AdminLayout from '@site/src/components/admin/AdminLayout';
import AuditPanel, { type AuditFilters } from '@site/src/components/admin/AuditPanel';
import ReadersPanel from '@site/src/components/admin/ReadersPanel';
import SourcesPanel from '@site/src/components/admin/SourcesPanel';
import ConnectedAppsPanel from '@site/src/components/admin/ConnectedAppsPanel';
import TokensPanel from '@site/src/components/admin/TokensPanel';
import styles from '@site/src/components/admin/admin.module.css';

type Tab = 'readers' | 'audit' | 'tokens' | 'sources';
const TABS: readonly (readonly [Tab, string])[] = [
  ['readers', 'Readers'],
  ['audit', 'Audit trail'],
  ['tokens', 'Tokens'],
  ['sources', 'Package sources'],
];

/** `/admin`: readers and their groups, invitations, the audit trail, every reader's tokens and the package sources. */
export default function AdminPage(): React.JSX.Element {
  const [tab, setTab] = useState<Tab>('readers');
  const [audit, setAudit] = useState<AuditFilters>({ kind: '', reader: '', from: '', to: '' });

  return (
    <AdminLayout title="Administration" current="readers">
      <div role="tablist" aria-label="Readers, audit trail, tokens or package sources" className={styles.tabs}>
        {TABS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-controls={`panel-${id}`}
            aria-selected={tab === id}
            className={styles.tab}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="panel-readers" aria-labelledby="tab-readers" hidden={tab !== 'readers'}>
        <ReadersPanel
          onShowTrail={(reader) => {
            setAudit({ kind: '', reader, from: '', to: '' });
            setTab('audit');
          }}
        />
      </div>
      <div role="tabpanel" id="panel-audit" aria-labelledby="tab-audit" hidden={tab !== 'audit'}>
        {tab === 'audit' && <AuditPanel filters={audit} onFilters={setAudit} />}
      </div>
      <div role="tabpanel" id="panel-tokens" aria-labelledby="tab-tokens" hidden={tab !== 'tokens'}>
        {tab === 'tokens' && (
          <>
            <TokensPanel />
            <ConnectedAppsPanel />
          </>
        )}
      </div>
      <div role="tabpanel" id="panel-sources" aria-labelledby="tab-sources" hidden={tab !== 'sources'}>
        {tab === 'sources' && <SourcesPanel />}
      </div>
    </AdminLayout>
  );
}
