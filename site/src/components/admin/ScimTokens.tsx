import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import clsx from 'clsx';

import ConfirmDialog from '@site/src/components/ConfirmDialog';
import CopyField from '@site/src/components/assistant/CopyField';
import { ColumnHeads, RevokeButton } from '@site/src/components/DataTable';

import type { OrganisationInfo } from './access-api';
import ChangeStatus from './ChangeStatus';
import { formatTime } from './format';
import { provisioningApi, type NewScimToken, type ProvisioningOverview, type ScimTokenInfo } from './provisioning-api';
import { liveTokens, readersWords } from './provisioning-state';
import TableWrap from './TableWrap';
import { useChange } from './use-change';
import styles from './admin.module.css';

/** A SCIM token just made: its secret this once (the portal keeps only a fingerprint), and where its client uses it. */
function MintedToken({
  minted,
  endpoint,
  onDone,
}: {
  minted: NewScimToken;
  endpoint: string;
  onDone: () => void;
}): React.JSX.Element {
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section className={styles.reveal} aria-labelledby={headingId}>
      <h6 id={headingId} ref={heading} tabIndex={-1}>
        The new SCIM token “{minted.name}”
      </h6>
      <p>
        <strong>Copy it now: it is shown this once.</strong> The portal keeps only a fingerprint of it; if it is lost,
        revoke it and make another.
      </p>
      <CopyField label="new SCIM token" value={minted.token} />
      <p className={styles.muted}>
        In the directory’s SCIM settings, the base URL (or tenant URL) is{' '}
        <code className={styles.callPath}>{endpoint}</code> and this token is its bearer token (API token).
      </p>
      <button type="button" className="button button--secondary button--sm" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

/**
 * The SCIM part of an organisation's provisioning: the endpoint its client calls, how many
 * readers it provisioned, its bearer tokens (a new one's secret shown once) and revoking one.
 */
export default function ScimTokens({
  organisation,
  overview,
  onChanged,
}: {
  organisation: OrganisationInfo;
  overview: ProvisioningOverview;
  onChanged: () => Promise<void>;
}): React.JSX.Element {
  const change = useChange(onChanged);
  const [name, setName] = useState('');
  const [minted, setMinted] = useState<NewScimToken | null>(null);
  const [revoking, setRevoking] = useState<ScimTokenInfo | null>(null);
  const ids = { heading: useId(), name: useId() };
  const { tokens } = overview;

  const mint = (event: FormEvent) => {
    event.preventDefault();
    const wanted = name.trim();
    if (wanted === '') {
      change.setError('Name the new token after the client that will hold it, such as “Okta”.');
      return;
    }
    setMinted(null);
    void change
      .run(
        () => provisioningApi.mintToken(organisation.id, wanted).then(setMinted),
        `The SCIM token “${wanted}” is made; copy its secret below.`,
        'The token was not made; try again.',
      )
      .then((ok) => ok && setName(''));
  };

  return (
    <section className={styles.provisioningPart} aria-labelledby={ids.heading}>
      <h5 id={ids.heading}>SCIM provisioning</h5>
      <p className={styles.muted}>
        Its directory (Okta, Microsoft Entra ID or any SCIM 2.0 client) makes, changes, deactivates and deletes its
        readers at {organisation.domains.join(', ') || 'its e-mail domains'} by calling this address with one of the
        tokens below. It provisions nobody at another domain.
      </p>
      <CopyField label="SCIM endpoint" value={overview.endpoint} />
      <p>
        <strong>{readersWords(overview.readers)}</strong>{' '}
        {tokens.length > 0 && <span className={styles.muted}>{liveTokens(tokens)} of its tokens can be used.</span>}
      </p>
      <ChangeStatus error={change.error} notice={change.notice} />
      {tokens.length === 0 ? (
        <p>No SCIM token yet: make one for its client below.</p>
      ) : (
        <TableWrap label="SCIM tokens">
          <table className={clsx(styles.table, styles.stacked)}>
            <caption>SCIM tokens, newest first</caption>
            <ColumnHeads columns={['Name', 'Ends with', 'Created', 'By', 'Last used', 'Status']} actions />
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id} className={token.revokedAt ? styles.ended : undefined}>
                  <td data-label="Name">{token.name}</td>
                  <td data-label="Ends with">
                    <code>…{token.hint}</code>
                  </td>
                  <td data-label="Created" className={styles.nowrap}>
                    {formatTime(token.createdAt)}
                  </td>
                  <td data-label="By" className={styles.email}>
                    {token.createdBy}
                  </td>
                  <td data-label="Last used" className={styles.nowrap}>
                    {formatTime(token.lastUsedAt) ?? 'never'}
                  </td>
                  <td data-label="Status">
                    {token.revokedAt ? `Revoked ${formatTime(token.revokedAt) ?? ''}` : 'Live'}
                  </td>
                  <td className={styles.actions}>
                    {!token.revokedAt && (
                      <RevokeButton label={`Revoke the SCIM token ${token.name}`} onClick={() => setRevoking(token)} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {minted && <MintedToken minted={minted} endpoint={overview.endpoint} onDone={() => setMinted(null)} />}
      <form className={styles.formRow} onSubmit={mint} noValidate>
        <label className={styles.field} htmlFor={ids.name}>
          Name of the new token (the client that holds it)
          <input
            id={ids.name}
            value={name}
            maxLength={80}
            placeholder="Okta"
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <button type="submit" className="button button--primary button--sm" disabled={change.working}>
          New SCIM token
        </button>
      </form>
      {revoking && (
        <ConfirmDialog
          title={`Revoke the SCIM token “${revoking.name}” of ${organisation.name}?`}
          confirm="Revoke token"
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const token = revoking;
            setRevoking(null);
            void change.run(
              () => provisioningApi.revokeToken(organisation.id, token.id),
              `The SCIM token “${token.name}” is revoked; its client is refused from its next call.`,
              'The token was not revoked; try again.',
            );
          }}
        >
          <p>
            The client that holds it (…{revoking.hint}) is refused from its next call. The readers it provisioned stay
            as they are. This cannot be undone; make a new token for the client instead.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
