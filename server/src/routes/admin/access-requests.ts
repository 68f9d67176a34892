import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { policy } from '@portal/access';
import {
  AccessRequestApproval,
  AccessRequestDecline,
  AccessRequestQueue,
  ErrorAnswer,
  IdParams,
  NoContent,
} from '@portal/contract';

import { accessRequestInfo, unitLabel } from '../../access-requests.js';
import {
  accessRequestForAnswer,
  accessRequestQueue,
  answerAccessRequest,
  type AccessRequest,
} from '../../db/access-requests.js';
import type { Transaction } from '../../db/database.js';
import { endOfDay, insertLicence, insertReaderGrant } from '../../db/licences.js';
import type { Mail } from '../../mail.js';
import { signedIn } from '../../plugins/app/guards.js';
import { Refused } from '../../refused.js';

/**
 * The administrators' queue (under `/api/admin`, behind its guards): every open request
 * with its reader and organisation, and the answers. An approval gives the unit to the
 * reader alone (a grant of their own) or to their whole organisation (a licence), with an
 * optional last day; a decline carries a reason. Each answer is one transaction, audited,
 * and read again by every replica at once, so the reader reads on their next request.
 */
const accessRequests: FastifyPluginAsyncTypebox = async (app) => {
  const { store, mailer, licences, guards } = app;
  const errors = { 400: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 503: ErrorAnswer };
  // No request is read or answered without the database.
  app.addHook('preHandler', guards.requireDatabase);

  app.get('/access-requests', { schema: { response: { 200: AccessRequestQueue, 503: ErrorAnswer } } }, async () => {
    const { organisations, licences: all } = licences.snapshot;
    const names = new Map(organisations.map((organisation) => [organisation.id, organisation.name]));
    /** The later of two ends; no end (null) is later than any. */
    const later = (a: Date | null, b: Date | null) => (a === null || b === null ? null : a > b ? a : b);
    /** What an organisation's live licences give now: each unit once, with its latest end. */
    const licensedOf = (id: string) => {
      const ends = new Map<string, Date | null>();
      for (const licence of all)
        if (licence.organisationId === id && licences.isLive(licence))
          for (const unit of licence.units)
            ends.set(unit, ends.has(unit) ? later(ends.get(unit) ?? null, licence.endsAt) : licence.endsAt);
      return policy.units
        .filter((unit) => ends.has(unit.name))
        .map((unit) => ({
          unit: unit.name,
          unitLabel: unit.label,
          endsAt: ends.get(unit.name)?.toISOString() ?? null,
        }));
    };
    return {
      requests: (await accessRequestQueue(store.db)).map((request) => ({
        ...accessRequestInfo(request),
        email: request.email,
        organisation:
          request.organisationId === null
            ? null
            : {
                id: request.organisationId,
                name: names.get(request.organisationId) ?? request.organisationId,
                licensed: licensedOf(request.organisationId),
              },
        answeredBy: request.answeredBy,
      })),
    };
  });

  /**
   * Answers an open request in one transaction (`grant` makes the grant of an approval and
   * names it for the audit), audits the answer, lets every replica read the data again and
   * mails the reader; a refusal's answer and nothing changed when it cannot be answered.
   */
  const answerRequest = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    given: Pick<AccessRequest, 'grantedTo' | 'endsAt' | 'answer'> & { status: 'approved' | 'declined' },
    grant: (asked: AccessRequest, tx: Transaction) => Promise<Record<string, unknown>>,
    mail: (asked: AccessRequest, origin: string) => Omit<Mail, 'to'>,
  ): Promise<FastifyReply> => {
    const admin = await signedIn(request);
    // A refusal inside (Refused) rolls the transaction back and is answered with its reason.
    const { asked, detail } = await store.db.transaction(async (tx) => {
      const asked = await accessRequestForAnswer(tx, id);
      if (asked === null) throw new Refused(404, 'No such access request');
      if (asked.status !== 'pending') throw new Refused(409, `This request was already ${asked.status}`);
      const detail = await grant(asked, tx);
      await answerAccessRequest(tx, asked.id, { ...given, answeredBy: admin.email });
      return { asked, detail };
    });
    app.audit(request, {
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
      ...mail(asked, app.originOf(request)),
    });
    return reply.code(204).send(null);
  };

  app.post(
    '/access-requests/:id/approve',
    {
      schema: { params: IdParams, body: AccessRequestApproval, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      const admin = await signedIn(request);
      const { body } = request;
      const endsAt = body.endsOn ? endOfDay(body.endsOn) : null;
      if (body.endsOn && endsAt === null)
        return reply.code(400).send({ error: `${body.endsOn} is not a day (YYYY-MM-DD)` });
      if (endsAt !== null && endsAt.getTime() <= Date.now())
        return reply.code(400).send({ error: 'The last day is already past' });
      const until = endsAt ? ` until ${endsAt.toISOString().slice(0, 10)}` : '';
      return answerRequest(
        request,
        reply,
        request.params.id,
        { status: 'approved', grantedTo: body.for, endsAt, answer: null },
        async (asked, tx) => {
          const units = [asked.unit];
          const organisationId = body.for === 'organisation' ? asked.organisationId : null;
          if (body.for === 'organisation') {
            if (organisationId === null || !licences.snapshot.organisations.some((o) => o.id === organisationId))
              throw new Refused(400, `${asked.email} belongs to no organisation; approve it for the reader alone`);
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
      schema: { params: IdParams, body: AccessRequestDecline, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      const reason = request.body.reason.trim();
      if (reason === '') return reply.code(400).send({ error: 'Say why it is declined' });
      return answerRequest(
        request,
        reply,
        request.params.id,
        { status: 'declined', grantedTo: null, endsAt: null, answer: reason },
        async () => ({ reason }),
        (asked, origin) => ({
          subject: `Your request for ${unitLabel(asked.unit)}`,
          text: `Your request for ${unitLabel(asked.unit)} in the Norigin developer docs was declined.\n\nThe reason given: ${reason}\n\nYour requests: ${origin}/account\n`,
        }),
      );
    },
  );
};
export default accessRequests;
