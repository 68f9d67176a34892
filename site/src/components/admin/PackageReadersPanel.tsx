import { useEffect, useId, useState } from 'react';

import { messageOf } from '@site/src/api/json-api';
import { formatDay } from '@site/src/components/account/format';
import { ColumnHeads } from '@site/src/components/DataTable';

import { accessApi, type AccessOverview, type UnitReaders } from './access-api';
import { sourceInWords } from './readers-state';
import TableWrap from './TableWrap';
import styles from './admin.module.css';

/** Units a reader cannot be given or asked about here: the account page and the administration come with groups. */
const NOT_PACKAGES = new Set(['account', 'administration']);

/**
 * "Who can read this?" for one package: the groups that read it, the organisations licensed
 * for it with their last day and readers, and every reader the portal knows who reads it,
 * with where it comes from.
 */
export default function PackageReadersPanel({ overview }: { overview: AccessOverview }): React.JSX.Element {
  const packages = overview.units.filter((unit) => !NOT_PACKAGES.has(unit.name));
  const [unit, setUnit] = useState('');
  const [answer, setAnswer] = useState<UnitReaders | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pickerId = useId();

  useEffect(() => {
    if (unit === '') return;
    let current = true;
    accessApi.unitReaders(unit).then(
      (found) => {
        if (!current) return;
        setAnswer(found);
        setError(null);
      },
      (failure: unknown) => {
        if (current) setError(messageOf(failure, 'Could not find who reads this package.'));
      },
    );
    return () => {
      current = false;
    };
  }, [unit]);

  return (
    <section className={styles.card} aria-labelledby="package-readers-heading">
      <h2 id="package-readers-heading">Who reads a package</h2>
      <p className={styles.muted}>
        Everyone who can read a package now, and why: the groups that read it, the organisations licensed for it and
        each reader the portal knows, with the day it ends.
      </p>
      <label className={styles.field} htmlFor={pickerId}>
        Package
        <select id={pickerId} value={unit} onChange={(event) => setUnit(event.target.value)}>
          <option value="">Choose a package…</option>
          {packages.map((option) => (
            <option key={option.name} value={option.name}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      {unit !== '' && answer?.unit !== unit && !error && <p role="status">Looking up who reads it…</p>}
      {answer && answer.unit === unit && (
        <div aria-label={`Who reads ${answer.unitLabel}`} role="region">
          <h3>Groups</h3>
          <p>
            {answer.groups.length === 0
              ? 'No group reads it.'
              : answer.groups
                  .map((group) => `${group.label} (${group.policy ? 'every reader in the group' : 'reader group'})`)
                  .join('; ')}
          </p>
          <h3>Organisations</h3>
          {answer.organisations.length === 0 ? (
            <p>No organisation is licensed for it.</p>
          ) : (
            <TableWrap label={`Organisations licensed for ${answer.unitLabel}`}>
              <table className={styles.table}>
                <caption>Organisations licensed for {answer.unitLabel}</caption>
                <ColumnHeads columns={['Organisation', 'Licence ends', 'Readers']} />
                <tbody>
                  {answer.organisations.map((organisation) => (
                    <tr key={organisation.id}>
                      <th scope="row">{organisation.name}</th>
                      <td>{organisation.endsAt ? formatDay(organisation.endsAt) : 'no end'}</td>
                      <td>{organisation.readers}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
          <h3>Readers</h3>
          {answer.readers.length === 0 ? (
            <p>No reader the portal knows reads it.</p>
          ) : (
            <TableWrap label={`Readers of ${answer.unitLabel}`}>
              <table className={styles.table}>
                <caption>
                  Readers of {answer.unitLabel} ({answer.readers.length})
                </caption>
                <ColumnHeads columns={['Reader', 'Reads it by']} />
                <tbody>
                  {answer.readers.map((reader) => (
                    <tr key={reader.email}>
                      <th scope="row" className={styles.email}>
                        {reader.email}
                      </th>
                      <td>{reader.sources.map(sourceInWords).join('; ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </div>
      )}
    </section>
  );
}
