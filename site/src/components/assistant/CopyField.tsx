import { useId, useState } from 'react';
import clsx from 'clsx';

import styles from './assistant.module.css';

/**
 * A value to paste elsewhere (an address, a command, a config), shown as it is, with a Copy
 * button and a status line that always holds its height, so a message moves nothing.
 */
export default function CopyField({
  label,
  value,
  block = false,
}: {
  /** What the value is, for the button's and the region's names: "MCP address". */
  label: string;
  value: string;
  /** Several lines (a config): a code block instead of one line. */
  block?: boolean;
}): React.JSX.Element {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const id = useId();

  function onCopy(): void {
    navigator.clipboard.writeText(value).then(
      () => setCopy('copied'),
      (error: unknown) => {
        console.warn(`Copying the ${label} failed:`, error);
        setCopy('failed');
      },
    );
  }

  return (
    <div className={styles.copyField}>
      <div className={clsx(styles.copyRow, block && styles.copyRowBlock)}>
        <pre className={styles.value} id={id} aria-label={label} tabIndex={0}>
          <code>{value}</code>
        </pre>
        <button
          type="button"
          className="button button--secondary button--sm"
          onClick={onCopy}
          aria-label={`Copy the ${label}`}
          aria-describedby={id}
        >
          Copy
        </button>
      </div>
      <p role="status" className={styles.copyStatus}>
        {copy === 'copied' && `Copied the ${label}.`}
        {copy === 'failed' && 'The browser did not let the page copy; select the text and copy it yourself.'}
      </p>
    </div>
  );
}
