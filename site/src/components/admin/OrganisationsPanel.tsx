import { useId, useState, type FormEvent } from 'react';

import { formatDay } from '@site/src/components/account/format';
import { dayInWords } from '@site/src/components/access-requests/api';
import ConfirmDialog from '@site/src/components/ConfirmDialog';
import { ColumnHeads } from '@site/src/components/DataTable';

import {
  accessApi,
  type AccessOverview,
  type AccessPanelProps,
  type LicenceInfo,
  type OrganisationInfo,
} from './access-api';
import ChangeStatus from './ChangeStatus';
import ProvisioningSection from './ProvisioningSection';
import { ssoLabel } from './provisioning-state';
import UnitPicker from './UnitPicker';
import { useChange } from './use-change';
import styles from './admin.module.css';

/** Domains as typed: separated by commas or spaces, lower case. */
const domainsOf = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,]+/)
      .map((domain) => domain.trim().toLowerCase())
      .filter(Boolean),
  ),
];

/** An organisation's name, domains (as typed) and contact, as its forms hold them. */
interface OrganisationText {
  name: string;
  domains: string;
  contact: string;
}

/** What an organisation's form sends: the domains as a list, an empty contact as none. */
const organisationBody = (text: OrganisationText) => ({
  name: text.name.trim(),
  domains: domainsOf(text.domains),
  contact: text.contact.trim() === '' ? null : text.contact.trim(),
});

/** The name, domains and contact fields of the new-organisation form and of an organisation's own. */
function OrganisationFields({
  value,
  onChange,
  domainsExample,
}: {
  value: OrganisationText;
  onChange: (next: OrganisationText) => void;
  domainsExample: string;
}): React.JSX.Element {
  const ids = { name: useId(), domains: useId(), contact: useId() };
  return (
    <>
      <label className={styles.field} htmlFor={ids.name}>
        Name
        <input
          id={ids.name}
          value={value.name}
          maxLength={120}
          required
          onChange={(e) => onChange({ ...value, name: e.target.value })}
        />
      </label>
      <label className={styles.field} htmlFor={ids.domains}>
        Verified e-mail domains
        <input
          id={ids.domains}
          value={value.domains}
          placeholder={domainsExample}
          onChange={(e) => onChange({ ...value, domains: e.target.value })}
        />
      </label>
      <label className={styles.field} htmlFor={ids.contact}>
        Contact e-mail
        <input
          id={ids.contact}
          type="email"
          value={value.contact}
          onChange={(e) => onChange({ ...value, contact: e.target.value })}
        />
      </label>
    </>
  );
}

/** A licence's last day as typed, in the site's words beside the browser's own field: "30 June 2030". */
function LastDay({ id, value, onChange }: { id: string; value: string; onChange: (day: string) => void }) {
  return (
    <label className={styles.field} htmlFor={id}>
      Last day (empty: no end)
      <input id={id} type="date" value={value} onChange={(event) => onChange(event.target.value)} />
      <span className={styles.muted}>{value === '' ? 'No end' : (dayInWords(value) ?? 'Not a day')}</span>
    </label>
  );
}

/** A licence in words: its packages (those no longer in the portal marked), its end, whether it still reads. */
function LicenceItem({
  licence,
  organisation,
  labels,
  onWithdraw,
  onEnd,
  working,
}: {
  licence: LicenceInfo;
  organisation: string;
  labels: ReadonlyMap<string, string>;
  onWithdraw: () => void;
  onEnd: (day: string | null) => void;
  working: boolean;
}): React.JSX.Element {
  const [day, setDay] = useState(licence.endsAt?.slice(0, 10) ?? '');
  const [confirming, setConfirming] = useState(false);
  const endId = useId();
  const end = formatDay(licence.endsAt);
  return (
    <li className={licence.live ? undefined : styles.ended}>
      <p>
        <strong>{licence.live ? 'Live' : `Ended on ${end}`}</strong>
        {licence.live && (end ? `, until the end of ${end}` : ', with no end')}. Granted by {licence.createdBy} on{' '}
        {formatDay(licence.createdAt)}.
      </p>
      <p>
        {licence.units.map((unit) =>
          licence.orphaned.includes(unit) ? (
            <span key={unit} className={`${styles.chip} ${styles.orphan}`}>
              {unit} (no longer a package of the portal; gives nothing)
            </span>
          ) : (
            <span key={unit} className={styles.chip}>
              {labels.get(unit) ?? unit}
            </span>
          ),
        )}
      </p>
      <div className={styles.formRow}>
        <LastDay id={endId} value={day} onChange={setDay} />
        <button
          type="button"
          className="button button--secondary button--sm"
          disabled={working}
          onClick={() => onEnd(day === '' ? null : day)}
        >
          Change the end
        </button>
        <button
          type="button"
          className="button button--outline button--danger button--sm"
          disabled={working}
          onClick={() => setConfirming(true)}
        >
          Withdraw licence
        </button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={`Withdraw this licence of ${organisation}?`}
          confirm="Withdraw licence"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            onWithdraw();
          }}
        >
          <p>
            {organisation}&apos;s readers stop reading{' '}
            {licence.units.map((unit) => labels.get(unit) ?? unit).join(', ')} on their next request, unless another
            licence, a group or a grant of their own gives it.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}

/**
 * One organisation, in sections: its details, its licences and a new one, its members, its own
 * sign-in and SCIM provisioning, and its removal.
 */
function OrganisationEditor({
  organisation,
  overview,
  reload,
}: {
  organisation: OrganisationInfo;
  overview: AccessOverview;
  reload: () => Promise<void>;
}): React.JSX.Element {
  const change = useChange(reload);
  const [fields, setFields] = useState<OrganisationText>({
    name: organisation.name,
    domains: organisation.domains.join(', '),
    contact: organisation.contact ?? '',
  });
  const [units, setUnits] = useState<string[]>([]);
  const [endsOn, setEndsOn] = useState('');
  const [removing, setRemoving] = useState(false);
  const labels = new Map(overview.units.map((unit) => [unit.name, unit.label]));
  const endsId = useId();
  const headings = { details: useId(), licence: useId(), members: useId(), remove: useId() };

  const save = (event: FormEvent) => {
    event.preventDefault();
    void change.run(
      () => accessApi.changeOrganisation(organisation.id, organisationBody(fields)),
      `${fields.name.trim()} is saved.`,
      'The organisation was not saved; try again.',
    );
  };
  const grant = (event: FormEvent) => {
    event.preventDefault();
    if (units.length === 0) {
      change.setError('Choose at least one package for the licence.');
      return;
    }
    void change
      .run(
        () => accessApi.grant(organisation.id, { units, endsOn: endsOn === '' ? null : endsOn }),
        `${organisation.name} now reads ${units.length} more package(s)${endsOn ? ` until ${formatDay(`${endsOn}T12:00:00Z`)}` : ''}.`,
        'The licence was not granted; try again.',
      )
      .then((ok) => {
        if (ok) {
          setUnits([]);
          setEndsOn('');
        }
      });
  };

  return (
    <section className={styles.orgCard} aria-labelledby={`org-${organisation.id}`}>
      <h3 id={`org-${organisation.id}`}>
        {organisation.name} <code>{organisation.id}</code>
      </h3>
      <ChangeStatus error={change.error} notice={change.notice} />
      <section className={styles.orgSection} aria-labelledby={headings.details}>
        <h4 id={headings.details}>Details</h4>
        <form className={styles.formRow} onSubmit={save}>
          <OrganisationFields value={fields} onChange={setFields} domainsExample="studio.example, studio.tv" />
          <button type="submit" className="button button--primary button--sm" disabled={change.working}>
            Save
          </button>
        </form>
      </section>

      <section className={styles.orgSection} aria-labelledby={headings.licence}>
        <h4 id={headings.licence}>Licence</h4>
        {organisation.licences.length === 0 ? (
          <p>No licence yet: its readers read only what their groups give.</p>
        ) : (
          <ul className={styles.licenceList} aria-label={`Licences of ${organisation.name}`}>
            {organisation.licences.map((licence) => (
              <LicenceItem
                key={`${licence.id}-${licence.endsAt ?? 'open'}`}
                licence={licence}
                organisation={organisation.name}
                labels={labels}
                working={change.working}
                onWithdraw={() =>
                  void change.run(
                    () => accessApi.withdraw(licence.id),
                    'The licence is withdrawn; its readers lose it on their next request.',
                    'The licence was not withdrawn; try again.',
                  )
                }
                onEnd={(day) =>
                  void change.run(
                    () => accessApi.changeLicence(licence.id, { endsOn: day }),
                    day
                      ? `The licence now reads until the end of ${formatDay(`${day}T12:00:00Z`)}.`
                      : 'The licence now has no end.',
                    'The end was not changed; try again.',
                  )
                }
              />
            ))}
          </ul>
        )}
        <details className={styles.newLicence} open={organisation.licences.length === 0}>
          <summary>Give a new licence</summary>
          <form onSubmit={grant}>
            <UnitPicker legend="New licence: packages" units={overview.units} selected={units} onChange={setUnits} />
            <div className={styles.formRow}>
              <LastDay id={endsId} value={endsOn} onChange={setEndsOn} />
              <button type="submit" className="button button--primary button--sm" disabled={change.working}>
                Grant licence
              </button>
            </div>
          </form>
        </details>
      </section>

      <section className={styles.orgSection} aria-labelledby={headings.members}>
        <h4 id={headings.members}>Members ({memberCount(organisation)})</h4>
        <p className={styles.muted}>
          Readers with a verified e-mail at {organisation.domains.join(', ') || 'its domains'} belong to it, and so do
          readers an administrator (or an import) added by name. The{' '}
          <a href={`/api/admin/organisations/${encodeURIComponent(organisation.id)}/access.csv`} download>
            access report (CSV)
          </a>{' '}
          lists what each of them reads and until when, for the account manager.
        </p>
        {memberCount(organisation) === 0 ? (
          <p>No members yet.</p>
        ) : (
          <ul aria-label={`Members of ${organisation.name}`}>
            {organisation.members.map((email) => (
              <li key={email} className={styles.email}>
                {email} <span className={styles.muted}>(added by name)</span>
              </li>
            ))}
            {(organisation.domainMembers ?? []).map((email) => (
              <li key={email} className={styles.email}>
                {email} <span className={styles.muted}>(by e-mail domain)</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <ProvisioningSection organisation={organisation} groups={overview.groups} reload={reload} />

      <section className={styles.orgSection} aria-labelledby={headings.remove}>
        <h4 id={headings.remove}>Remove the organisation</h4>
        <p className={styles.muted}>Its licences go with it; its readers keep their groups and their own grants.</p>
        <button
          type="button"
          className="button button--outline button--danger button--sm"
          disabled={change.working}
          onClick={() => setRemoving(true)}
        >
          Remove {organisation.name}
        </button>
      </section>
      {removing && (
        <ConfirmDialog
          title={`Remove ${organisation.name}?`}
          confirm={`Remove ${organisation.name}`}
          danger
          onCancel={() => setRemoving(false)}
          onConfirm={() => {
            setRemoving(false);
            void change.run(
              () => accessApi.removeOrganisation(organisation.id),
              `${organisation.name} is removed.`,
              'The organisation was not removed; try again.',
            );
          }}
        >
          <p>
            Its {organisation.licences.length} licence(s) go with it, and its {memberCount(organisation)} member(s) stop
            reading what they gave on their next request.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** Everyone in an organisation: added by name, and by a verified address at its domains. */
function memberCount(organisation: OrganisationInfo): number {
  return organisation.members.length + (organisation.domainMembers?.length ?? 0);
}

/** A licence's units in a few words, for the overview table. */
function licenceSummary(organisation: OrganisationInfo): string {
  const live = organisation.licences.filter((licence) => licence.live);
  const ended = organisation.licences.length - live.length;
  const units = new Set(live.flatMap((licence) => licence.units));
  const parts = [
    live.length === 0 ? 'no live licence' : `${live.length} live (${units.size} package${units.size === 1 ? '' : 's'})`,
  ];
  if (ended > 0) parts.push(`${ended} ended`);
  return parts.join(', ');
}

/**
 * The partner companies: create one, and for each its name, verified domains, contact,
 * licences (with a unit picker and an optional end), members, and its own sign-in and SCIM
 * provisioning (ProvisioningSection).
 */
export default function OrganisationsPanel({ overview, reload }: AccessPanelProps): React.JSX.Element {
  const change = useChange(reload);
  const [chosen, setChosen] = useState<string | null>(null);
  const [id, setId] = useState('');
  const [fields, setFields] = useState<OrganisationText>({ name: '', domains: '', contact: '' });
  const idField = useId();
  const selected = overview.organisations.find((organisation) => organisation.id === chosen) ?? null;

  const create = (event: FormEvent) => {
    event.preventDefault();
    const newId = id.trim().toLowerCase();
    void change
      .run(
        () => accessApi.createOrganisation({ id: newId, ...organisationBody(fields) }),
        `${fields.name.trim()} is created; give it a licence below.`,
        'The organisation was not created; try again.',
      )
      .then((ok) => {
        if (!ok) return;
        setChosen(newId);
        setId('');
        setFields({ name: '', domains: '', contact: '' });
      });
  };

  return (
    <section className={styles.card} aria-labelledby="organisations-heading">
      <h2 id="organisations-heading">Organisations</h2>
      <p className={styles.muted}>
        A partner company reads the packages its live licences give; its members are the readers at its verified e-mail
        domains and those added to it by name. A change takes effect on each reader&apos;s next request.
      </p>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption>Organisations</caption>
          <ColumnHeads columns={['Organisation', 'Licences', 'Members']} />
          <tbody>
            {overview.organisations.map((organisation) => (
              <tr key={organisation.id}>
                <th scope="row">
                  <button
                    type="button"
                    className="button button--link button--sm"
                    aria-pressed={chosen === organisation.id}
                    onClick={() => setChosen(chosen === organisation.id ? null : organisation.id)}
                  >
                    {organisation.name}
                  </button>
                  {ssoLabel(organisation.signIn) && (
                    <span className={styles.badge}>{ssoLabel(organisation.signIn)}</span>
                  )}
                  <div className={styles.muted}>{organisation.domains.join(', ') || 'no domain'}</div>
                </th>
                <td>{licenceSummary(organisation)}</td>
                <td>{memberCount(organisation)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {overview.organisations.length === 0 && <p>No organisation yet.</p>}
      {selected ? (
        <OrganisationEditor key={selected.id} organisation={selected} overview={overview} reload={reload} />
      ) : (
        <p className={styles.muted}>
          Choose an organisation by its name to see its licence, members, sign-in and provisioning, or to change them.
        </p>
      )}

      <h3>New organisation</h3>
      <ChangeStatus error={change.error} notice={change.notice} />
      <form className={styles.formRow} onSubmit={create}>
        <label className={styles.field} htmlFor={idField}>
          Id (lower case, dashes)
          <input
            id={idField}
            value={id}
            required
            pattern="[a-z][a-z0-9\-]{0,47}"
            placeholder="acme-tv"
            onChange={(e) => setId(e.target.value)}
          />
        </label>
        <OrganisationFields value={fields} onChange={setFields} domainsExample="acme.example" />
        <button type="submit" className="button button--primary button--sm" disabled={change.working}>
          Create organisation
        </button>
      </form>
    </section>
  );
}
