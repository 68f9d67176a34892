import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { canRead, policy, sectionOf, PUBLIC } from '@portal/access';
import {
  AccessRequestApproval,
  AccessRequestBody,
  AccessRequestDecline,
  AccessRequestInfo,
  AccessRequestList,
  AccessRequestQueue,
  ErrorAnswer,
  IdParams,
  NoContent,
  RefusalAnswer,
  RefusalQuery,
} from '@portal/contract';

import type { Reader } from '../auth/identity.js';
import type { Licences } from '../auth/licences.js';
import type { Transaction } from '../db/database.js';
import type { Mail } from '../mail.js';
import {
  accessRequestForAnswer,
  accessRequestQueue,
  accessRequestsOf,
  answerAccessRequest,
  insertAccessRequest,
  type AccessRequest,
} from '../db/access-requests.js';
import { endOfDay, insertLicence, insertReaderGrant } from '../db/licences.js';
import { adminRateLimit } from './admin.js';
import type { GateContext } from './context.js';

const unitLabel = (unit: string): string => policy.units.find((info) => info.name === unit)?.label ?? unit;

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

function info(request: AccessRequest): AccessRequestInfo {
  return {
    id: request.id,
    unit: request.unit,
    unitLabel: unitLabel(request.unit),
    path: request.path,
    reason: request.reason,
    status: request.status,
    createdAt: request.createdAt.toISOString(),
    answeredAt: iso(request.answeredAt),
    grantedTo: request.grantedTo,
    endsAt: iso(request.endsAt),
    answer: request.answer,
  };
}

/** The unit a page belongs to, or null for a public page or a path no unit has. */
function unitOfPage(path: string): string | null {
  const unit = sectionOf(path);
  return unit === null || unit === PUBLIC ? null : unit;
}

const refuse = (reply: FastifyReply, status: 400 | 404 | 409 | 503, error: string) =>
  reply.code(status).send({ error });

const unavailable = 'Access requests are not available right now; try again shortly';

/**
 * A signed-in reader's side of asking for access (under `/api`): why a page is not theirs,
 * asking for its unit with a short reason, and their requests with the answers.
 */
export async function accessRequestRoutes(app: FastifyInstance, ctx: GateContext, licences: Licences): Promise<void> {
  const { store, mailer } = ctx;
  app.addHook('onRequest', ctx.guards.noStore('private, no-store'));
  app.addHook('onRequest', ctx.guards.writesFromThisSite);
  app.addHook('onRequest', ctx.guards.requireReader('Sign in to do this'));

  const latestFor = async (reader: Reader, unit: string): Promise<AccessRequest | null> =>
    (await accessRequestsOf(store.db, reader.email.toLowerCase())).find((request) => request.unit === unit) ?? null;

  app.get(
    '/access/refusal',
    {
      schema: {
        querystring: RefusalQuery,
        response: { 200: RefusalAnswer, 404: ErrorAnswer, 503: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const reader = request.signedIn as Reader;
      const { path } = request.query as RefusalQuery;
      const unit = unitOfPage(path);
      if (unit === null) return refuse(reply, 404, 'That page is open to everyone or is no page of the portal');
      if (!store.readyNow) return refuse(reply, 503, unavailable);
      const why = canRead(reader.units, path)
        ? ({ reason: 'readable' } as const)
        : licences.whyNot(reader.email, reader.organisation ?? null, unit);
      const latest = await latestFor(reader, unit);
      const organisation = licences.snapshot.organisations.find((candidate) => candidate.id === reader.organisation);
      return {
        unit,
        unitLabel: unitLabel(unit),
        reason: why.reason,
        endedAt: why.reason === 'ended' ? why.endedAt.toISOString() : null,
        organisation: organisation?.name ?? null,
        canAsk: why.reason !== 'readable' && why.reason !== 'internal' && latest?.status !== 'pending',
        request: latest ? info(latest) : null,
      } satisfies RefusalAnswer;
    },
  );

  app.get(
    '/access-requests',
    { schema: { response: { 200: AccessRequestList, 503: ErrorAnswer } } },
    async (request, reply) => {
      if (!store.readyNow) return refuse(reply, 503, unavailable);
      const reader = request.signedIn as Reader;
      return { requests: (await accessRequestsOf(store.db, reader.email.toLowerCase())).map(info) };
    },
  );

  app.post(
    '/access-requests',
    {
      config: { rateLimit: { max: 10, timeWindow: 60_000, hook: 'preHandler' as const } },
      schema: {
        body: AccessRequestBody,
        response: { 201: AccessRequestInfo, 400: ErrorAnswer, 409: ErrorAnswer, 503: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const reader = request.signedIn as Reader;
      const body = request.body as AccessRequestBody;
      const unit = unitOfPage(body.path);
      if (unit === null) return refuse(reply, 400, 'That page is open to everyone or is no page of the portal');
      if (canRead(reader.units, body.path)) return refuse(reply, 409, 'You can already read this page');
      if (!policy.units.find((candidate) => candidate.name === unit)?.licensable)
        return refuse(reply, 400, `${unitLabel(unit)} is for Norigin's own developers and cannot be asked for`);
      if (!store.readyNow) return refuse(reply, 503, unavailable);
      const email = reader.email.toLowerCase();
      const created = await insertAccessRequest(store.db, {
        email,
        uid: reader.uid,
        unit,
        path: body.path,
        reason: body.reason.trim(),
        organisationId: reader.organisation ?? null,
      });
      if (created === null)
        return refuse(reply, 409, `You have already asked for ${unitLabel(unit)}; it awaits an answer`);
      ctx.audit(request, {
        kind: 'access.requested',
        actorUid: reader.uid,
        actorEmail: reader.email,
        subjectEmail: email,
        path: body.path,
        groups: reader.groups,
        detail: { request: created.id, unit, reason: created.reason, organisation: created.organisationId },
      });
      mailer?.send({
        to: policy.requestAccess.email,
        subject: `Access request: ${unitLabel(unit)} for ${email}`,
        text: `${email} asks to read ${unitLabel(unit)} (from ${body.path}).\n\nTheir reason: ${created.reason || '(none given)'}\n\nAnswer it in the portal's administration, under Access requests.\n`,
      });
      return reply.code(201).send(info(created));
    },
  );
}

/**
 * The administrators' queue (under `/api/admin`, behind its guards): every open request
 * with its reader and organisation, and the answers. An approval gives the unit to the
 * reader alone (a grant of their own) or to their whole organisation (a licence), with an
 * optional last day; a decline carries a reason. Each answer is one transaction, audited,
 * and read again by every replica at once, so the reader reads on their next request.
 */
export async function accessRequestAdminRoutes(
  app: FastifyInstance,
  ctx: GateContext,
  licences: Licences,
): Promise<void> {
  const { store, mailer } = ctx;
  const limited = adminRateLimit(ctx);
  const errors = { 400: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 503: ErrorAnswer };

  app.get(
    '/access-requests',
    { config: limited, schema: { response: { 200: AccessRequestQueue, 503: ErrorAnswer } } },
    async (_request, reply) => {
      if (!store.readyNow) return refuse(reply, 503, unavailable);
      const names = new Map(
        licences.snapshot.organisations.map((organisation) => [organisation.id, organisation.name]),
      );
      return {
        requests: (await accessRequestQueue(store.db)).map((request) => ({
          ...info(request),
          email: request.email,
          organisation:
            request.organisationId === null
              ? null
              : { id: request.organisationId, name: names.get(request.organisationId) ?? request.organisationId },
          answeredBy: request.answeredBy,
        })),
      };
    },
  );

  class Refusal extends Error {
    constructor(
      readonly status: 400 | 404 | 409,
      message: string,
    ) {
      super(message);
    }
  }

  /**
   * Answers an open request in one transaction (`grant` makes the grant of an approval and
   * names it for the audit), audits the answer, lets every replica read the data again and
   * mails the reader; a refusal's answer and nothing changed when it cannot be answered.
   */
  const answerRequest = async (
    request: FastifyRequest,
    reply: FastifyReply,
    given: Pick<AccessRequest, 'grantedTo' | 'endsAt' | 'answer'> & { status: 'approved' | 'declined' },
    grant: (asked: AccessRequest, tx: Transaction) => Promise<Record<string, unknown>>,
    mail: (asked: AccessRequest, origin: string) => Omit<Mail, 'to'>,
  ): Promise<FastifyReply> => {
    const admin = request.signedIn as Reader;
    const { id } = request.params as { id: string };
    let outcome: { asked: AccessRequest; detail: Record<string, unknown> };
    try {
      outcome = await store.db.transaction(async (tx) => {
        const asked = await accessRequestForAnswer(tx, id);
        if (asked === null) throw new Refusal(404, 'No such access request');
        if (asked.status !== 'pending') throw new Refusal(409, `This request was already ${asked.status}`);
        const detail = await grant(asked, tx);
        await answerAccessRequest(tx, asked.id, { ...given, answeredBy: admin.email });
        return { asked, detail };
      });
    } catch (error) {
      if (error instanceof Refusal) return refuse(reply, error.status, error.message);
      throw error;
    }
    const { asked, detail } = outcome;
    ctx.audit(request, {
      kind: 'admin.access-request',
      actorUid: admin.uid,
      actorEmail: admin.email,
      subjectEmail: asked.email,
      groups: admin.groups,
      path: asked.path,
      detail: { request: asked.id, action: given.status, unit: asked.unit, ...detail },
    });
    if (given.status === 'approved') await licences.changed();
    mailer?.send({
      to: asked.email,
      ...mail(asked, ctx.config.publicOrigin ?? `${request.protocol}://${request.host}`),
    });
    return reply.code(204).send();
  };

  app.post(
    '/access-requests/:id/approve',
    {
      config: limited,
      schema: { params: IdParams, body: AccessRequestApproval, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      if (!store.readyNow) return refuse(reply, 503, unavailable);
      const admin = request.signedIn as Reader;
      const body = request.body as AccessRequestApproval;
      const endsAt = body.endsOn ? endOfDay(body.endsOn) : null;
      if (body.endsOn && endsAt === null) return refuse(reply, 400, `${body.endsOn} is not a day (YYYY-MM-DD)`);
      if (endsAt !== null && endsAt.getTime() <= Date.now()) return refuse(reply, 400, 'The last day is already past');
      const until = endsAt ? ` until ${endsAt.toISOString().slice(0, 10)}` : '';
      return answerRequest(
        request,
        reply,
        { status: 'approved', grantedTo: body.for, endsAt, answer: null },
        async (asked, tx) => {
          const units = [asked.unit];
          const organisationId = body.for === 'organisation' ? asked.organisationId : null;
          if (body.for === 'organisation') {
            if (organisationId === null || !licences.snapshot.organisations.some((o) => o.id === organisationId))
              throw new Refusal(400, `${asked.email} belongs to no organisation; approve it for the reader alone`);
            await insertLicence(tx, { organisationId, units, endsAt, createdBy: admin.email });
          } else
            await insertReaderGrant(tx, {
              email: asked.email,
              units,
              endsAt,
              requestId: asked.id,
              createdBy: admin.email,
            });
          return { for: body.for, organisation: organisationId, endsOn: body.endsOn ?? null };
        },
        (asked, origin) => ({
          subject: `You can now read ${unitLabel(asked.unit)}`,
          text: `Your request for ${unitLabel(asked.unit)} in the Norigin developer docs was approved for ${body.for === 'organisation' ? 'you and your organisation' : 'you'}${until}.\n\nRead it at ${origin}${asked.path}\nYour requests: ${origin}/account\n`,
        }),
      );
    },
  );

  app.post(
    '/access-requests/:id/decline',
    {
      config: limited,
      schema: { params: IdParams, body: AccessRequestDecline, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      if (!store.readyNow) return refuse(reply, 503, unavailable);
      const reason = (request.body as AccessRequestDecline).reason.trim();
      if (reason === '') return refuse(reply, 400, 'Say why it is declined');
      return answerRequest(
        request,
        reply,
        { status: 'declined', grantedTo: null, endsAt: null, answer: reason },
        async () => ({ reason }),
        (asked, origin) => ({
          subject: `Your request for ${unitLabel(asked.unit)}`,
          text: `Your request for ${unitLabel(asked.unit)} in the Norigin developer docs was declined.\n\nThe reason given: ${reason}\n\nYour requests: ${origin}/account\n`,
        }),
      );
    },
  );
}
