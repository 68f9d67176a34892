import { randomUUID } from 'node:crypto';

import type { Database, Transaction } from './database.js';

/** A partner company: readers with a verified e-mail at one of its domains belong to it. */
export interface Organisation {
  id: string;
  name: string;
  /** Lower case, no repeats. */
  domains: string[];
  contact: string | null;
  createdAt: Date;
  /** The organisation's own sign-in, when an administrator gave it one. */
  signIn: OrganisationSignIn | null;
}

/** An organisation's identity provider in Firebase Authentication, and whether its readers must use it. */
export interface OrganisationSignIn {
  /** `oidc.…` or `saml.…`: the provider's id in Firebase Authentication. */
  provider: string;
  /** What the sign-in page calls it ("Northwind SSO"). */
  name: string;
  /** Readers at the organisation's domains cannot sign in with a password or another provider. */
  required: boolean;
}

/** An organisation reads these units until `endsAt` (never ends when null). */
export interface Licence {
  id: string;
  organisationId: string;
  units: string[];
  endsAt: Date | null;
  createdAt: Date;
  createdBy: string;
}

/** A named set of units that administrators made. */
export interface AccessGroup {
  name: string;
  label: string;
  units: string[];
}

/** A reader's organisation (null: by their e-mail domain) and groups, by e-mail (lower case). */
export interface Membership {
  email: string;
  organisationId: string | null;
  groups: string[];
}

/** The last moment of a day (`2027-06-30`), UTC, when a licence or a grant ending that day stops; null for no such day. */
export function endOfDay(day: string): Date | null {
  const end = new Date(`${day}T23:59:59.999Z`);
  return Number.isNaN(end.getTime()) || end.toISOString().slice(0, 10) !== day ? null : end;
}

/** Units given to one reader (an approved access request), until `endsAt` (never ends when null). */
export interface ReaderGrant {
  id: string;
  /** Lower case. */
  email: string;
  units: string[];
  endsAt: Date | null;
  requestId: string | null;
}

/** Everything that says who reads which unit, as the database holds it. */
export interface AccessData {
  organisations: Organisation[];
  licences: Licence[];
  groups: AccessGroup[];
  memberships: Membership[];
  grants: ReaderGrant[];
}

export const emptyAccessData = (): AccessData => ({
  organisations: [],
  licences: [],
  groups: [],
  memberships: [],
  grants: [],
});

type Query = Pick<Database, 'query'>;

/** Reads all of it at once: a few thousand rows at a company's scale, held in memory by the gate. */
export async function loadAccessData(db: Query): Promise<AccessData> {
  // One after another: inside a transaction they share one connection, which takes one query at a time.
  const organisations = await db.query<{
    id: string;
    name: string;
    domains: string[];
    contact: string | null;
    created_at: Date;
    sign_in_provider: string | null;
    sign_in_name: string | null;
    sign_in_required: boolean;
  }>(
    `select id, name, domains, contact, created_at, sign_in_provider, sign_in_name, sign_in_required
     from organisations order by name, id`,
  );
  const licences = await db.query<{
    id: string;
    organisation_id: string;
    units: string[];
    ends_at: Date | null;
    created_at: Date;
    created_by: string;
  }>('select id, organisation_id, units, ends_at, created_at, created_by from licences order by created_at, id');
  const groups = await db.query<{ name: string; label: string; units: string[] }>(
    'select name, label, units from access_groups order by name',
  );
  const memberships = await db.query<{ email: string; organisation_id: string | null; groups: string[] }>(
    'select email, organisation_id, groups from reader_memberships order by email',
  );
  const grants = await db.query<{
    id: string;
    email: string;
    units: string[];
    ends_at: Date | null;
    request_id: string | null;
  }>('select id, email, units, ends_at, request_id from reader_grants order by created_at, id');
  return {
    organisations: organisations.map((row) => ({
      id: row.id,
      name: row.name,
      domains: row.domains,
      contact: row.contact,
      createdAt: new Date(row.created_at),
      signIn:
        row.sign_in_provider === null
          ? null
          : { provider: row.sign_in_provider, name: row.sign_in_name ?? row.name, required: row.sign_in_required },
    })),
    licences: licences.map((row) => ({
      id: row.id,
      organisationId: row.organisation_id,
      units: row.units,
      endsAt: row.ends_at === null ? null : new Date(row.ends_at),
      createdAt: new Date(row.created_at),
      createdBy: row.created_by,
    })),
    groups: groups.map((row) => ({ name: row.name, label: row.label, units: row.units })),
    memberships: memberships.map((row) => ({
      email: row.email,
      organisationId: row.organisation_id,
      groups: row.groups,
    })),
    grants: grants.map((row) => ({
      id: row.id,
      email: row.email,
      units: row.units,
      endsAt: row.ends_at === null ? null : new Date(row.ends_at),
      requestId: row.request_id,
    })),
  };
}

export async function insertOrganisation(
  tx: Query,
  organisation: Pick<Organisation, 'id' | 'name' | 'domains' | 'contact'> & { signIn?: OrganisationSignIn | null },
): Promise<void> {
  await tx.query(
    `insert into organisations (id, name, domains, contact, sign_in_provider, sign_in_name, sign_in_required)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      organisation.id,
      organisation.name,
      organisation.domains,
      organisation.contact,
      organisation.signIn?.provider ?? null,
      organisation.signIn?.name ?? null,
      organisation.signIn?.required ?? false,
    ],
  );
}

export async function updateOrganisation(
  tx: Query,
  id: string,
  change: Partial<Pick<Organisation, 'name' | 'domains' | 'contact'>>,
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `update organisations set name = coalesce($2, name), domains = coalesce($3, domains),
       contact = case when $4::boolean then $5 else contact end
     where id = $1 returning id`,
    [id, change.name ?? null, change.domains ?? null, change.contact !== undefined, change.contact ?? null],
  );
  return rows.length > 0;
}

/** Gives an organisation its sign-in, or none (null); false when there is no such organisation. */
export async function setOrganisationSignIn(
  tx: Query,
  id: string,
  signIn: OrganisationSignIn | null,
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `update organisations set sign_in_provider = $2, sign_in_name = $3, sign_in_required = $4 where id = $1 returning id`,
    [id, signIn?.provider ?? null, signIn?.name ?? null, signIn?.required ?? false],
  );
  return rows.length > 0;
}

export async function deleteOrganisation(tx: Query, id: string): Promise<boolean> {
  return (await tx.query<{ id: string }>('delete from organisations where id = $1 returning id', [id])).length > 0;
}

export async function insertLicence(
  tx: Query,
  licence: Pick<Licence, 'organisationId' | 'units' | 'endsAt' | 'createdBy'>,
): Promise<string> {
  const id = randomUUID();
  await tx.query('insert into licences (id, organisation_id, units, ends_at, created_by) values ($1, $2, $3, $4, $5)', [
    id,
    licence.organisationId,
    licence.units,
    licence.endsAt,
    licence.createdBy,
  ]);
  return id;
}

export async function updateLicence(
  tx: Query,
  id: string,
  change: { units?: string[]; endsAt?: Date | null },
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `update licences set units = coalesce($2, units),
       ends_at = case when $3::boolean then $4 else ends_at end
     where id = $1 returning id`,
    [id, change.units ?? null, change.endsAt !== undefined, change.endsAt ?? null],
  );
  return rows.length > 0;
}

export async function deleteLicence(tx: Query, id: string): Promise<boolean> {
  return (await tx.query<{ id: string }>('delete from licences where id = $1 returning id', [id])).length > 0;
}

export async function upsertAccessGroup(tx: Query, group: AccessGroup): Promise<void> {
  await tx.query(
    `insert into access_groups (name, label, units) values ($1, $2, $3)
     on conflict (name) do update set label = excluded.label, units = excluded.units`,
    [group.name, group.label, group.units],
  );
}

export async function deleteAccessGroup(tx: Transaction | Query, name: string): Promise<boolean> {
  const removed = await tx.query<{ name: string }>('delete from access_groups where name = $1 returning name', [name]);
  // Nobody stays a member of a group that is gone.
  await tx.query('update reader_memberships set groups = array_remove(groups, $1) where $1 = any(groups)', [name]);
  return removed.length > 0;
}

/** Places a reader: an organisation (null: by e-mail domain) and groups. No organisation and no groups removes the row. */
export async function setMembership(tx: Query, membership: Membership): Promise<void> {
  if (membership.organisationId === null && membership.groups.length === 0) {
    await tx.query('delete from reader_memberships where email = $1', [membership.email]);
    return;
  }
  await tx.query(
    `insert into reader_memberships (email, organisation_id, groups, updated_at) values ($1, $2, $3, now())
     on conflict (email) do update set organisation_id = excluded.organisation_id, groups = excluded.groups,
       updated_at = now()`,
    [membership.email, membership.organisationId, membership.groups],
  );
}

/** Gives one reader units (an approved access request); the id of the grant. */
export async function insertReaderGrant(
  tx: Query,
  grant: Pick<ReaderGrant, 'email' | 'units' | 'endsAt' | 'requestId'> & { createdBy: string },
): Promise<string> {
  const id = randomUUID();
  await tx.query(
    'insert into reader_grants (id, email, units, ends_at, request_id, created_by) values ($1, $2, $3, $4, $5, $6)',
    [id, grant.email, grant.units, grant.endsAt, grant.requestId, grant.createdBy],
  );
  return id;
}

/**
 * Writes many readers' placements at once (an import): one statement for the rows that stay
 * or arrive, one for those removed, so ten thousand rows cost two round trips, not twenty thousand.
 */
export async function writeMemberships(
  tx: Query,
  writes: readonly { email: string; placement: { organisationId: string | null; groups: readonly string[] } | null }[],
): Promise<void> {
  const kept = writes.filter((write) => write.placement !== null);
  const removed = writes.filter((write) => write.placement === null).map((write) => write.email);
  if (kept.length > 0)
    await tx.query(
      `insert into reader_memberships (email, organisation_id, groups, updated_at)
       select email, organisation_id, case when groups = '' then '{}'::text[] else string_to_array(groups, ' ') end, now()
       from unnest($1::text[], $2::text[], $3::text[]) as row(email, organisation_id, groups)
       on conflict (email) do update set organisation_id = excluded.organisation_id, groups = excluded.groups,
         updated_at = now()`,
      [
        kept.map((write) => write.email),
        kept.map((write) => write.placement?.organisationId ?? null),
        kept.map((write) => write.placement?.groups.join(' ') ?? ''),
      ],
    );
  if (removed.length > 0) await tx.query('delete from reader_memberships where email = any($1::text[])', [removed]);
}
