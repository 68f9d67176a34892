import { useState } from 'react';

import AdminLayout from '@site/src/components/admin/AdminLayout';
import AuditPanel, { type AuditFilters } from '@site/src/components/admin/AuditPanel';
import ReadersPanel from '@site/src/components/admin/ReadersPanel';
import TokensPanel from '@site/src/components/admin/TokensPanel';
import styles from '@site/src/components/admin/admin.module.css';

/** `/admin`: readers and their groups, invitations, the audit trail, and every reader's tokens. */
export default function AdminPage(): React.JSX.Element {
  const [tab, setTab] = useState<'readers' | 'audit' | 'tokens'>('readers');
  const [audit, setAudit] = useState<AuditFilters>({ kind: '', reader: '', from: '', to: '' });

  return (
    <AdminLayout title="Administration" current="readers">
      <div role="tablist" aria-label="Readers, audit trail or tokens" className={styles.tabs}>
        <button
          type="button"
          role="tab"
          id="tab-readers"
          aria-controls="panel-readers"
          aria-selected={tab === 'readers'}
          className={styles.tab}
          onClick={() => setTab('readers')}
        >
          Readers
        </button>
        <button
          type="button"
          role="tab"
          id="tab-audit"
          aria-controls="panel-audit"
          aria-selected={tab === 'audit'}
          className={styles.tab}
          onClick={() => setTab('audit')}
        >
          Audit trail
        </button>
        <button
          type="button"
          role="tab"
          id="tab-tokens"
          aria-controls="panel-tokens"
          aria-selected={tab === 'tokens'}
          className={styles.tab}
          onClick={() => setTab('tokens')}
        >
          Tokens
        </button>
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
        {tab === 'tokens' && <TokensPanel />}
      </div>
    </AdminLayout>
  );
}
