import { useId, useState, type FormEvent } from 'react';

import { ColumnHeads } from '@site/src/components/DataTable';

import { accessApi, type AccessGroupInfo, type AccessPanelProps } from './access-api';
import ChangeStatus from './ChangeStatus';
import UnitPicker from './UnitPicker';
import { useChange } from './use-change';
import styles from './admin.module.css';

/**
 * Groups of units that administrators make ("player-basic"): create one, change its units,
 * delete it. A reader placed in a group reads its units, whatever their organisation.
 */
export default function AccessGroupsPanel({ overview, reload }: AccessPanelProps): React.JSX.Element {
  const change = useChange(reload);
  const [editing, setEditing] = useState<AccessGroupInfo | null>(null);
  const [name, setName] = useState('');
  const [label, setLabel] = useState('');
  const [units, setUnits] = useState<string[]>([]);
  const ids = { name: useId(), label: useId() };
  const labels = new Map(overview.units.map((unit) => [unit.name, unit.label]));

  const edit = (group: AccessGroupInfo | null) => {
    setEditing(group);
    setName(group?.name ?? '');
    setLabel(group?.label ?? '');
    setUnits(group ? group.units.filter((unit) => !group.orphaned.includes(unit)) : []);
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (units.length === 0) {
      change.setError('Choose at least one unit for the group.');
      return;
    }
    const groupName = name.trim().toLowerCase();
    void change
      .run(
        () => accessApi.saveGroup(groupName, { label: label.trim(), units }),
        `The group ${groupName} is saved; its members read its ${units.length} unit(s).`,
        'The group was not saved; try again.',
      )
      .then((ok) => ok && edit(null));
  };

  return (
    <section className={styles.card} aria-labelledby="access-groups-heading">
      <h2 id="access-groups-heading">Access groups</h2>
      <p className={styles.muted}>
        Named sets of units. Place readers in them with an import below; the policy&apos;s own groups (staff, partner,
        admin) are given with the readers command.
      </p>
      <ChangeStatus error={change.error} notice={change.notice} />
      {overview.groups.length === 0 ? (
        <p>No access group yet.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption>Access groups</caption>
            <ColumnHeads columns={['Group', 'Units', 'Members']} actions />
            <tbody>
              {overview.groups.map((group) => (
                <tr key={group.name}>
                  <th scope="row">
                    {group.label} <code>{group.name}</code>
                  </th>
                  <td>
                    {group.units.map((unit) => (
                      <span
                        key={unit}
                        className={`${styles.chip} ${group.orphaned.includes(unit) ? styles.orphan : ''}`}
                      >
                        {group.orphaned.includes(unit) ? `${unit} (orphaned)` : (labels.get(unit) ?? unit)}
                      </span>
                    ))}
                  </td>
                  <td>{group.members.length}</td>
                  <td className={styles.actions}>
                    <button
                      type="button"
                      className="button button--secondary button--sm"
                      onClick={() => edit(group)}
                      aria-label={`Change ${group.name}`}
                    >
                      Change
                    </button>
                    <button
                      type="button"
                      className="button button--outline button--danger button--sm"
                      disabled={change.working}
                      aria-label={`Delete ${group.name}`}
                      onClick={() => {
                        if (
                          window.confirm(
                            `Delete the group ${group.name}? Its ${group.members.length} member(s) lose its units.`,
                          )
                        )
                          void change.run(
                            () => accessApi.removeGroup(group.name),
                            `The group ${group.name} is deleted.`,
                            'The group was not deleted; try again.',
                          );
                      }}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>{editing ? `Change ${editing.name}` : 'New access group'}</h3>
      <form onSubmit={save}>
        <div className={styles.formRow}>
          <label className={styles.field} htmlFor={ids.name}>
            Name (lower case, dashes)
            <input
              id={ids.name}
              value={name}
              required
              readOnly={editing !== null}
              pattern="[a-z][a-z0-9\-]{0,47}"
              placeholder="player-basic"
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <label className={styles.field} htmlFor={ids.label}>
            Label
            <input
              id={ids.label}
              value={label}
              required
              maxLength={120}
              placeholder="Player basics"
              onChange={(e) => setLabel(e.target.value)}
            />
          </label>
        </div>
        <UnitPicker legend="Units of the group" units={overview.units} selected={units} onChange={setUnits} />
        <button type="submit" className="button button--primary button--sm" disabled={change.working}>
          {editing ? 'Save the group' : 'Create group'}
        </button>{' '}
        {editing && (
          <button type="button" className="button button--secondary button--sm" onClick={() => edit(null)}>
            Cancel
          </button>
        )}
      </form>
    </section>
  );
}
