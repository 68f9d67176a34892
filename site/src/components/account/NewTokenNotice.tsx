import { useEffect, useRef, useState } from 'react';

import Link from '@docusaurus/Link';

import { ASSISTANT_PATH } from '@site/src/components/NavbarAuthItem/AccountMenu';

import type { CreatedToken } from './api';
import { formatDay } from './format';
import styles from './account.module.css';

/**
 * The secret of a token just made, shown this once: the server keeps only a hash of it, so
 * neither this page nor an administrator can show it again.
 */
export default function NewTokenNotice({
  created,
  onDone,
}: {
  created: CreatedToken;
  onDone: () => void;
}): React.JSX.Element {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const heading = useRef<HTMLHeadingElement>(null);
  // The origin the reader is on, for an example they can paste as it is. This notice only
  // follows a click, so it is never rendered on the server.
  const origin = typeof window === 'undefined' ? '' : window.location.origin;

  useEffect(() => {
    heading.current?.focus();
  }, []);

  function onCopy(): void {
    navigator.clipboard.writeText(created.token).then(
      () => setCopy('copied'),
      (error: unknown) => {
        console.warn('Copying the token failed:', error);
        setCopy('failed');
      },
    );
  }

  return (
    <section className={styles.reveal} aria-labelledby="new-token-heading">
      <h3 id="new-token-heading" ref={heading} tabIndex={-1}>
        Your new token “{created.record.name}”
      </h3>
      <p>
        <strong>Copy it now: you will not see it again.</strong> The portal keeps only a fingerprint of it. If you lose
        it, revoke it and create another. It works until {formatDay(created.record.expiresAt)}.
      </p>
      <div className={styles.secretRow}>
        <input
          readOnly
          value={created.token}
          aria-label="New token"
          className={styles.secret}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button button--primary" onClick={onCopy}>
          Copy
        </button>
      </div>
      <p role="status" className={styles.copyStatus}>
        {copy === 'copied' && 'Copied to the clipboard.'}
        {copy === 'failed' && 'The browser did not let the page copy; select the token and copy it yourself.'}
      </p>
      <p className={styles.muted}>
        An assistant sends it in the <code>Authorization: Bearer</code> header, to the MCP server at{' '}
        <code>{origin}/mcp</code>, the Markdown pages or <code>/llms.txt</code>. Most assistants need no token at all:{' '}
        <Link to={ASSISTANT_PATH}>Use with your assistant</Link> shows how each one connects and signs in.
      </p>
      <button type="button" className="button button--secondary button--sm" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
