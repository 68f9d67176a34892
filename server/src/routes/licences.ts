import type { FastifyInstance, FastifyRequest } from 'fastify';

import { policy } from '@portal/access';
import {
  AccessGroupBody,
  AccessOverview,
  EmailParams,
  ErrorAnswer,
  IdParams,
  ImportQuery,
  ImportReport,
  LicenceAnswer,
  LicenceBody,
  LicenceChange,
  MembershipBody,
  MembershipCsv,
  NameParams,
  NoContent,
  OrganisationBody,
  OrganisationChange,
} from '@portal/contract';
import { MAX_IMPORT_BYTES } from '@portal/contract/names';

import type { Reader } from '../auth/identity.js';
import type { Licences } from '../auth/licences.js';
import type { AuditEvent } from '../db/audit.js';
import type { Transaction } from '../db/database.js';
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
} from '../db/licences.js';
import { CsvFileError, type ImportPlan } from '../memberships/csv.js';
import { membershipImports } from '../memberships/import.js';
import { adminRateLimit } from './admin.js';
import type { GateContext } from './context.js';

class Refused extends Error {
  constructor(
    readonly statusCode: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

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
 * Who reads which unit, as data, under `/api/admin` (administrators only, by the prefix's
 * guards in app.ts): organisations with their domains and licences, the administrators' own
 * groups of units, and each reader's organisation and groups. Every change is made in one
 * transaction with its audit event's before and after read inside it, then every replica
 * reads the data again (`Licences.changed`), so it takes effect on each reader's next
 * request without a rebuild, a restart or a new sign-in.
 */
export async function licenceRoutes(app: FastifyInstance, ctx: GateContext, licences: Licences): Promise<void> {
  const { store } = ctx;
  const limited = adminRateLimit(ctx);

  // Every call needs the database: one answer for all of them while it cannot be reached.
  app.addHook('preHandler', async (_request, reply) => {
    if (!store.readyNow) return reply.code(503).send({ error: 'The database is not reachable; try again shortly' });
  });

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
    const admin = request.signedIn as Reader;
    const outcome = await store.db.transaction(async (tx) => {
      const before = overview(await loadAccessData(tx), licences);
      const done = await work(tx);
      const after = overview(await loadAccessData(tx), licences);
      return { ...done, before: pick(before, done.subject) ?? null, after: pick(after, done.subject) ?? null };
    });
    ctx.audit(request, {
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

  app.setErrorHandler((caught: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (caught.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply
        .code(413)
        .send({ error: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB; split it into smaller files` });
    if (caught.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.code(415).send({ error: 'Send the file as CSV text (Content-Type: text/csv)' });
    const status = caught.statusCode && caught.statusCode >= 400 && caught.statusCode < 500 ? caught.statusCode : 500;
    if (status >= 500) request.log.error({ err: caught }, 'licence change failed');
    return reply
      .code(status)
      .send({ error: status >= 500 ? 'The change could not be made; nothing was changed' : caught.message });
  });

  const errors = { 400: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 503: ErrorAnswer };

  app.get('/access', { config: limited, schema: { response: { 200: AccessOverview, 503: ErrorAnswer } } }, async () =>
    overview(await loadAccessData(store.db), licences),
  );

  app.post(
    '/organisations',
    { config: limited, schema: { body: OrganisationBody, response: { 201: NoContent, ...errors } } },
    async (request, reply) => {
      const body = request.body as OrganisationBody;
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
      config: limited,
      schema: { params: IdParams, body: OrganisationChange, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      await change(
        request,
        'admin.organisation',
        async (tx) => {
          if (!(await updateOrganisation(tx, id, request.body as OrganisationChange)))
            throw new Refused(404, `No organisation "${id}"`);
          return { result: null, subject: { organisation: id, action: 'changed' } };
        },
        organisationIn,
      );
      return reply.code(204).send();
    },
  );

  app.delete(
    '/organisations/:id',
    { config: limited, schema: { params: IdParams, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      await change(
        request,
        'admin.organisation',
        async (tx) => {
          if (!(await deleteOrganisation(tx, id))) throw new Refused(404, `No organisation "${id}"`);
          return { result: null, subject: { organisation: id, action: 'removed' } };
        },
        organisationIn,
      );
      return reply.code(204).send();
    },
  );

  app.post(
    '/organisations/:id/licences',
    { config: limited, schema: { params: IdParams, body: LicenceBody, response: { 201: LicenceAnswer, ...errors } } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const body = request.body as LicenceBody;
      checkUnits(body.units);
      const endsAt = endOf(body.endsOn) ?? null;
      const admin = request.signedIn as Reader;
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
    { config: limited, schema: { params: IdParams, body: LicenceChange, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const body = request.body as LicenceChange;
      if (body.units) checkUnits(body.units);
      const endsAt = endOf(body.endsOn);
      await change(
        request,
        'admin.licence',
        async (tx) => {
          const organisation = await organisationOfLicence(tx, id);
          await updateLicence(tx, id, { units: body.units, endsAt });
          return { result: null, subject: { organisation, licence: id, action: 'changed' } };
        },
        organisationIn,
      );
      return reply.code(204).send();
    },
  );

  app.delete(
    '/licences/:id',
    { config: limited, schema: { params: IdParams, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      await change(
        request,
        'admin.licence',
        async (tx) => {
          const organisation = await organisationOfLicence(tx, id);
          await deleteLicence(tx, id);
          return { result: null, subject: { organisation, licence: id, action: 'withdrawn' } };
        },
        organisationIn,
      );
      return reply.code(204).send();
    },
  );

  app.put(
    '/access-groups/:name',
    { config: limited, schema: { params: NameParams, body: AccessGroupBody, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { name } = request.params as { name: string };
      const body = request.body as AccessGroupBody;
      checkGroupName(name);
      checkUnits(body.units);
      await change(
        request,
        'admin.access-group',
        async (tx) => {
          await upsertAccessGroup(tx, { name, label: body.label, units: body.units });
          return { result: null, subject: { group: name, action: 'saved' } };
        },
        groupIn,
      );
      return reply.code(204).send();
    },
  );

  app.delete(
    '/access-groups/:name',
    { config: limited, schema: { params: NameParams, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { name } = request.params as { name: string };
      await change(
        request,
        'admin.access-group',
        async (tx) => {
          if (!(await deleteAccessGroup(tx, name))) throw new Refused(404, `No group "${name}"`);
          return { result: null, subject: { group: name, action: 'removed' } };
        },
        groupIn,
      );
      return reply.code(204).send();
    },
  );

  app.put(
    '/memberships/:email',
    { config: limited, schema: { params: EmailParams, body: MembershipBody, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const email = (request.params as { email: string }).email.trim().toLowerCase();
      const body = request.body as MembershipBody;
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
      return reply.code(204).send();
    },
  );

  // ---- readers' memberships as CSV ----------------------------------------------------------

  // A CSV file as it is sent: text, up to the import's limit (the API's other bodies stay small).
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: MAX_IMPORT_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  const report = (plan: ImportPlan, applied: boolean): ImportReport => ({
    applied,
    rows: plan.rows,
    counts: plan.counts,
    changes: plan.changes,
    refused: plan.refused,
  });
  const fileRefused = (error: unknown): never => {
    if (error instanceof CsvFileError) throw new Refused(400, error.message);
    throw error;
  };

  app.post(
    '/readers/import',
    {
      config: limited,
      bodyLimit: MAX_IMPORT_BYTES,
      // A JSON body would parse and then fail the schema: say what to send instead.
      preValidation: async (request, reply) => {
        if (!/^text\/csv\b/i.test(request.headers['content-type'] ?? ''))
          return reply.code(415).send({ error: 'Send the file as CSV text (Content-Type: text/csv)' });
      },
      schema: {
        consumes: ['text/csv'],
        querystring: ImportQuery,
        body: MembershipCsv,
        response: { 200: ImportReport, 422: ImportReport, 413: ErrorAnswer, 415: ErrorAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const text = request.body as string;
      if ((request.query as ImportQuery).apply !== 'true')
        return report(await membershipImports.preview(store.db, text).catch(fileRefused), false);
      const { plan, applied } = await membershipImports.apply(store.db, text).catch(fileRefused);
      // A refused row stops the whole file: nothing was written, and the report says why.
      if (!applied) return reply.code(422).send(report(plan, false));
      const admin = request.signedIn as Reader;
      ctx.audit(request, {
        kind: 'admin.import',
        actorUid: admin.uid,
        actorEmail: admin.email,
        groups: admin.groups,
        detail: membershipImports.auditDetail(text, plan),
      });
      await licences.changed();
      return report(plan, true);
    },
  );

  app.get(
    '/readers/export',
    {
      config: limited,
      schema: {
        produces: ['text/csv'],
        response: {
          200: {
            description: 'Every membership: email,organisation,groups',
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          503: ErrorAnswer,
        },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="readers-${new Date().toISOString().slice(0, 10)}.csv"`)
        .send(await membershipImports.export(store.db)),
  );
}
