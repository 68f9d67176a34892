import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { policy, unitsOfGroups } from '@portal/access';
import {
  AccessGroupBody,
  AccessOverview,
  EmailParams,
  ErrorAnswer,
  IdParams,
  LicenceAnswer,
  LicenceBody,
  LicenceChange,
  MembershipBody,
  NameParams,
  NoContent,
  OrganisationBody,
  OrganisationChange,
  UnitParams,
  UnitReaders,
} from '@portal/contract';

import { accessOf } from '../../access-requests.js';
import type { AccountAccess, Licences } from '../../auth/licences.js';
import type { AuditEvent } from '../../db/audit.js';
import type { Transaction } from '../../db/database.js';
import {
  deleteAccessGroup,
  deleteLicence,
  deleteOrganisation,
  endOfDay,
  insertLicence,
  insertOrganisation,
  loadAccessData,
  setMembership,
  updateLicence,
  updateOrganisation,
  upsertAccessGroup,
  type AccessData,
} from '../../db/licences.js';
import { signedIn } from '../../plugins/app/guards.js';
import { Refused } from '../../refused.js';
import { spreadsheetCsv } from '../../spreadsheet-csv.js';

/** The end of a licence's last day, UTC, or null for one that does not end. */
const endOf = (day: string | null | undefined): Date | null | undefined => {
  if (day === undefined || day === null) return day;
  const end = endOfDay(day);
  if (end === null) throw new Refused(400, `${day} is not a day (YYYY-MM-DD)`);
  return end;
};

/** Every unit named must be the policy's; a grant of a unit that does not exist is refused. */
function checkUnits(units: readonly string[]): void {
  const unknown = units.filter((unit) => !policy.unitNames.includes(unit));
  if (unknown.length > 0)
    throw new Refused(400, `${unknown.map((unit) => `"${unit}"`).join(', ')} is not a unit of the access policy`);
}

/** The policy's own groups cannot be made here: their units are the policy file's. */
function checkGroupName(name: string): void {
  if (policy.groupNames.includes(name))
    throw new Refused(409, `"${name}" is a group of the access policy; choose another name`);
}

const orphans = (units: readonly string[]): string[] => units.filter((unit) => !policy.unitNames.includes(unit));

/** The overview an administrator sees, from data as the database holds it. */
function overview(data: AccessData, licences: Licences): AccessOverview {
  return {
    units: policy.units.map((unit) => ({ name: unit.name, label: unit.label })),
    organisations: data.organisations.map((organisation) => ({
      id: organisation.id,
      name: organisation.name,
      domains: organisation.domains,
      contact: organisation.contact,
      signIn: organisation.signIn,
      licences: data.licences
        .filter((licence) => licence.organisationId === organisation.id)
        .map((licence) => ({
          id: licence.id,
          units: licence.units,
          orphaned: orphans(licence.units),
          endsAt: licence.endsAt?.toISOString() ?? null,
          live: licences.isLive(licence),
          createdAt: licence.createdAt.toISOString(),
          createdBy: licence.createdBy,
        })),
      members: data.memberships
        .filter((membership) => membership.organisationId === organisation.id)
        .map((membership) => membership.email),
    })),
    groups: data.groups.map((group) => ({
      name: group.name,
      label: group.label,
      units: group.units,
      orphaned: orphans(group.units),
      members: data.memberships
        .filter((membership) => membership.groups.includes(group.name))
        .map((membership) => membership.email),
    })),
  };
}

/**
 * Who reads which unit, as data: organisations with their domains and licences, the
 * administrators' own groups of units, and each reader's organisation and groups. Every
 * change is made in one transaction with its audit event's before and after read inside it,
 * then every replica reads the data again (`Licences.changed`), so it takes effect on each
 * reader's next request without a rebuild, a restart or a new sign-in.
 */
const access: FastifyPluginAsyncTypebox = async (app) => {
  const { store, licences, guards, readerIndex } = app;

  // Every call needs the database: one answer for all of them while it cannot be reached.
  app.addHook('preHandler', guards.requireDatabase);

  /**
   * Runs a change and audits it: `work` changes the rows and names the subject; the state
   * before and after is the overview's part that `pick` selects, read in the same transaction.
   */
  const change = async <T>(
    request: FastifyRequest,
    kind: AuditEvent['kind'],
    work: (tx: Transaction) => Promise<{ result: T; subject: Record<string, unknown>; subjectEmail?: string }>,
    pick: (view: AccessOverview, subject: Record<string, unknown>) => unknown,
  ): Promise<T> => {
    const admin = await signedIn(request);
    const outcome = await store.db.transaction(async (tx) => {
      const before = overview(await loadAccessData(tx), licences);
      const done = await work(tx);
      const after = overview(await loadAccessData(tx), licences);
      return { ...done, before: pick(before, done.subject) ?? null, after: pick(after, done.subject) ?? null };
    });
    app.audit(request, {
      kind,
      actorUid: admin.uid,
      actorEmail: admin.email,
      subjectEmail: outcome.subjectEmail ?? null,
      groups: admin.groups,
      detail: { ...outcome.subject, before: outcome.before, after: outcome.after },
    });
    await licences.changed();
    return outcome.result;
  };

  /** `change` for the calls that answer 204 No Content: `work` changes the rows and returns the subject. */
  const changed = async (
    request: FastifyRequest,
    reply: FastifyReply,
    kind: AuditEvent['kind'],
    pick: (view: AccessOverview, subject: Record<string, unknown>) => unknown,
    work: (tx: Transaction) => Promise<Record<string, unknown>>,
  ): Promise<FastifyReply> => {
    await change(request, kind, async (tx) => ({ result: null, subject: await work(tx) }), pick);
    return reply.code(204).send(null);
  };

  const organisationIn = (view: AccessOverview, subject: Record<string, unknown>) =>
    view.organisations.find((organisation) => organisation.id === subject.organisation);
  const groupIn = (view: AccessOverview, subject: Record<string, unknown>) =>
    view.groups.find((group) => group.name === subject.group);
  const membershipIn = (view: AccessOverview, subject: Record<string, unknown>) => {
    const email = subject.email as string;
    return {
      organisation: view.organisations.find((organisation) => organisation.members.includes(email))?.id ?? null,
      groups: view.groups.filter((group) => group.members.includes(email)).map((group) => group.name),
    };
  };

  /** A unique-key or foreign-key clash, as the one thing a person can fix. */
  const clash = (error: unknown, message: string): never => {
    const code = (error as { code?: string }).code;
    if (code === '23505') throw new Refused(409, message);
    if (code === '23503') throw new Refused(404, message);
    throw error;
  };

  const errors = { 400: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 503: ErrorAnswer };

  /**
   * The readers of each organisation the portal knows, by e-mail: those added by name (placed
   * there; they may not have signed in yet) and the accounts at its verified domains placed
   * nowhere, each with what `accessOf` needs (a placed reader without an account: no groups).
   */
  const membersByOrganisation = async () => {
    const members = new Map<string, { email: string; by: 'name' | 'domain'; account: AccountAccess }[]>();
    const add = (organisation: string, member: { email: string; by: 'name' | 'domain'; account: AccountAccess }) => {
      const list = members.get(organisation);
      if (list) list.push(member);
      else members.set(organisation, [member]);
    };
    const accounts = new Map<string, AccountAccess>();
    for (const reader of await readerIndex.select((account) => account.email !== null)) {
      const email = (reader.email as string).toLowerCase();
      accounts.set(email, { email, emailVerified: reader.emailVerified, groups: reader.groups });
    }
    for (const { email, organisationId } of licences.snapshot.memberships)
      if (organisationId !== null)
        add(organisationId, {
          email,
          by: 'name',
          account: accounts.get(email) ?? { email, emailVerified: false, groups: [] },
        });
    // Placed in an organisation (a membership may hold groups only, and place nowhere).
    const placed = new Set(
      licences.snapshot.memberships.filter((member) => member.organisationId !== null).map((member) => member.email),
    );
    for (const account of accounts.values()) {
      const organisation = account.emailVerified ? licences.organisationOf(account.email, true) : null;
      if (organisation && !placed.has(account.email))
        add(organisation.id, { email: account.email, by: 'domain', account });
    }
    for (const list of members.values()) list.sort((a, b) => a.email.localeCompare(b.email));
    return members;
  };

  /**
   * Who can read a package: the groups that read it, the organisations licensed for it (with
   * the last day and how many readers it gives it), and every known reader who
   * reads it, with every reason (`accessOf`, as the reader's own account page shows it).
   */
  app.get(
    '/units/:unit/readers',
    { schema: { params: UnitParams, response: { 200: UnitReaders, 404: ErrorAnswer, 503: ErrorAnswer } } },
    async (request) => {
      const { unit } = request.params;
      const info = policy.units.find((candidate) => candidate.name === unit && candidate.name !== 'account');
      if (!info) throw new Refused(404, `No package "${unit}" in the access policy`);
      const readers: UnitReaders['readers'] = [];
      const licensedReaders = new Map<string, number>();
      const all = (await readerIndex.select((account) => account.email !== null)).map((account) => ({
        email: (account.email as string).toLowerCase(),
        emailVerified: account.emailVerified,
        groups: account.groups,
        disabled: account.disabled,
      }));
      // A disabled account reads nothing: it cannot sign in.
      const accounts = all.filter((account) => !account.disabled);
      // Readers added by name before their first sign-in read by their membership alone.
      const known = new Set(all.map((account) => account.email));
      const byName = licences.snapshot.memberships
        .filter((member) => !known.has(member.email))
        .map((member) => ({ email: member.email, emailVerified: false, groups: [] as readonly string[] }));
      for (const account of [...accounts, ...byName]) {
        const found = accessOf(licences, account).units.find((candidate) => candidate.unit === unit);
        if (!found) continue;
        readers.push({ email: account.email, sources: found.sources });
        // A licence source is always the reader's own organisation's.
        const organisation = licences.organisationOf(account.email, account.emailVerified);
        if (organisation && found.sources.some((source) => source.kind === 'licence'))
          licensedReaders.set(organisation.id, (licensedReaders.get(organisation.id) ?? 0) + 1);
      }
      readers.sort((a, b) => a.email.localeCompare(b.email));
      const organisations = licences.snapshot.organisations.flatMap((organisation) => {
        const live = licences.snapshot.licences.filter(
          (licence) =>
            licence.organisationId === organisation.id && licence.units.includes(unit) && licences.isLive(licence),
        );
        if (live.length === 0) return [];
        const ends = live.map((licence) => licence.endsAt);
        const endsAt = ends.includes(null) ? null : new Date(Math.max(...ends.map((end) => (end as Date).getTime())));
        return [
          {
            id: organisation.id,
            name: organisation.name,
            endsAt: endsAt?.toISOString() ?? null,
            readers: licensedReaders.get(organisation.id) ?? 0,
          },
        ];
      });
      const groups = [
        ...policy.groups
          .filter((group) => unitsOfGroups([group.name]).includes(unit))
          .map((group) => ({ name: group.name, label: group.label, policy: true })),
        ...licences.snapshot.groups
          .filter((group) => group.units.includes(unit))
          .map((group) => ({ name: group.name, label: group.label, policy: false })),
      ];
      return { unit, unitLabel: info.label, groups, organisations, readers };
    },
  );

  /**
   * Revokes a reader's own grant (an approved access request): the reader stops reading its
   * units on their next request, unless something else gives them. Audited with what it gave.
   */
  app.delete(
    '/grants/:id',
    { schema: { params: IdParams, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { id } = request.params;
      const admin = await signedIn(request);
      const [grant] = await store.db.query<{
        email: string;
        units: string[];
        ends_at: Date | string | null;
        request_id: string | null;
      }>('delete from reader_grants where id = $1 returning email, units, ends_at, request_id', [id]);
      if (!grant) throw new Refused(404, `No grant "${id}"; it may have been revoked already`);
      app.audit(request, {
        kind: 'admin.grant',
        actorUid: admin.uid,
        actorEmail: admin.email,
        subjectEmail: grant.email,
        groups: admin.groups,
        detail: {
          grant: id,
          action: 'revoked',
          units: grant.units,
          endsAt: grant.ends_at === null ? null : new Date(grant.ends_at).toISOString(),
          request: grant.request_id,
        },
      });
      await licences.changed();
      return reply.code(204).send(null);
    },
  );

  app.get('/access', { schema: { response: { 200: AccessOverview, 503: ErrorAnswer } } }, async () => {
    const view = overview(await loadAccessData(store.db), licences);
    const members = await membersByOrganisation();
    return {
      ...view,
      organisations: view.organisations.map((organisation) => ({
        ...organisation,
        domainMembers: (members.get(organisation.id) ?? [])
          .filter((member) => member.by === 'domain')
          .map((member) => member.email),
      })),
    };
  });

  app.post(
    '/organisations',
    { schema: { body: OrganisationBody, response: { 201: NoContent, ...errors } } },
    async (request, reply) => {
      const { body } = request;
      await change(
        request,
        'admin.organisation',
        async (tx) => {
          await insertOrganisation(tx, { ...body, contact: body.contact ?? null }).catch((error: unknown) =>
            clash(error, `There is already an organisation "${body.id}"`),
          );
          return { result: null, subject: { organisation: body.id, action: 'created' } };
        },
        organisationIn,
      );
      return reply.code(201).send(null);
    },
  );

  app.patch(
    '/organisations/:id',
    {
      schema: { params: IdParams, body: OrganisationChange, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      const { id } = request.params;
      return changed(request, reply, 'admin.organisation', organisationIn, async (tx) => {
        if (!(await updateOrganisation(tx, id, request.body))) throw new Refused(404, `No organisation "${id}"`);
        return { organisation: id, action: 'changed' };
      });
    },
  );

  app.delete(
    '/organisations/:id',
    { schema: { params: IdParams, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { id } = request.params;
      return changed(request, reply, 'admin.organisation', organisationIn, async (tx) => {
        if (!(await deleteOrganisation(tx, id))) throw new Refused(404, `No organisation "${id}"`);
        return { organisation: id, action: 'removed' };
      });
    },
  );

  /**
   * The access report of one organisation, for its account manager: a row per reader and
   * package, with where it comes from (the organisation's licence, a grant of the reader's
   * own, a group) and until when. Its readers are those added by name and those the portal
   * knows at its verified domains.
   */
  app.get(
    '/organisations/:id/access.csv',
    {
      schema: {
        params: IdParams,
        produces: ['text/csv'],
        response: {
          200: {
            description: 'email,member_by,package,unit,from,ends_on',
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          404: ErrorAnswer,
          503: ErrorAnswer,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const organisation = licences.snapshot.organisations.find((candidate) => candidate.id === id);
      if (!organisation) throw new Refused(404, `No organisation "${id}"`);
      const day = (endsAt: string | null) => endsAt?.slice(0, 10) ?? '';
      const rows: string[][] = [];
      for (const { email, by, account } of (await membersByOrganisation()).get(id) ?? [])
        for (const unit of accessOf(licences, account).units)
          for (const source of unit.sources)
            rows.push([
              email,
              by === 'name' ? 'added by name' : 'e-mail domain',
              unit.unitLabel,
              unit.unit,
              source.kind === 'group' ? `group ${source.group}` : source.kind === 'licence' ? 'licence' : 'grant',
              source.kind === 'group' ? '' : day(source.endsAt),
            ]);
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="access-${id}-${new Date().toISOString().slice(0, 10)}.csv"`,
        )
        .send(spreadsheetCsv(['email', 'member_by', 'package', 'unit', 'from', 'ends_on'], rows));
    },
  );

  app.post(
    '/organisations/:id/licences',
    { schema: { params: IdParams, body: LicenceBody, response: { 201: LicenceAnswer, ...errors } } },
    async (request, reply) => {
      const { id } = request.params;
      const { body } = request;
      checkUnits(body.units);
      const endsAt = endOf(body.endsOn) ?? null;
      const admin = await signedIn(request);
      const licence = await change(
        request,
        'admin.licence',
        async (tx) => {
          const created = await insertLicence(tx, {
            organisationId: id,
            units: body.units,
            endsAt,
            createdBy: admin.email,
          }).catch((error: unknown) => clash(error, `No organisation "${id}"`));
          return { result: created, subject: { organisation: id, licence: created, action: 'granted' } };
        },
        organisationIn,
      );
      return reply.code(201).send({ id: licence });
    },
  );

  const organisationOfLicence = async (tx: Transaction, id: string): Promise<string> => {
    const [row] = await tx.query<{ organisation_id: string }>('select organisation_id from licences where id = $1', [
      id,
    ]);
    if (!row) throw new Refused(404, `No licence "${id}"`);
    return row.organisation_id;
  };

  app.patch(
    '/licences/:id',
    { schema: { params: IdParams, body: LicenceChange, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { id } = request.params;
      const { body } = request;
      if (body.units) checkUnits(body.units);
      const endsAt = endOf(body.endsOn);
      return changed(request, reply, 'admin.licence', organisationIn, async (tx) => {
        const organisation = await organisationOfLicence(tx, id);
        await updateLicence(tx, id, { units: body.units, endsAt });
        return { organisation, licence: id, action: 'changed' };
      });
    },
  );

  app.delete(
    '/licences/:id',
    { schema: { params: IdParams, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { id } = request.params;
      return changed(request, reply, 'admin.licence', organisationIn, async (tx) => {
        const organisation = await organisationOfLicence(tx, id);
        await deleteLicence(tx, id);
        return { organisation, licence: id, action: 'withdrawn' };
      });
    },
  );

  app.put(
    '/access-groups/:name',
    { schema: { params: NameParams, body: AccessGroupBody, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { name } = request.params;
      const { body } = request;
      checkGroupName(name);
      checkUnits(body.units);
      return changed(request, reply, 'admin.access-group', groupIn, async (tx) => {
        await upsertAccessGroup(tx, { name, label: body.label, units: body.units });
        return { group: name, action: 'saved' };
      });
    },
  );

  app.delete(
    '/access-groups/:name',
    { schema: { params: NameParams, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { name } = request.params;
      return changed(request, reply, 'admin.access-group', groupIn, async (tx) => {
        if (!(await deleteAccessGroup(tx, name))) throw new Refused(404, `No group "${name}"`);
        return { group: name, action: 'removed' };
      });
    },
  );

  app.put(
    '/memberships/:email',
    { schema: { params: EmailParams, body: MembershipBody, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const email = request.params.email.trim().toLowerCase();
      const { body } = request;
      const known = new Set(licences.snapshot.groups.map((group) => group.name));
      const unknown = body.groups.filter((group) => !known.has(group));
      if (unknown.length > 0)
        throw new Refused(400, `${unknown.map((g) => `"${g}"`).join(', ')} is not a group made here`);
      await change(
        request,
        'admin.membership',
        async (tx) => {
          await setMembership(tx, { email, organisationId: body.organisation, groups: body.groups }).catch(
            (error: unknown) => clash(error, `No organisation "${body.organisation}"`),
          );
          return { result: null, subject: { email, action: 'placed' }, subjectEmail: email };
        },
        membershipIn,
      );
      return reply.code(204).send(null);
    },
  );
};
export default access;
