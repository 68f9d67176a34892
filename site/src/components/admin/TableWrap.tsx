import type { ReactNode } from 'react';

import styles from './admin.module.css';

/**
 * A table that may scroll sideways (a phone, a long row): a named region that takes the
 * keyboard's focus, so it can be scrolled with the arrow keys.
 */
export default function TableWrap({ label, children }: { label: string; children: ReactNode }): React.JSX.Element {
  return (
    <div className={styles.tableWrap} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
