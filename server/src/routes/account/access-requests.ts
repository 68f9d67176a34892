import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { canRead, policy, PUBLIC, sectionOf } from '@portal/access';
import {
  AccessRequestBody,
  AccessRequestInfo,
  AccessRequestList,
  ErrorAnswer,
  RefusalAnswer,
  RefusalQuery,
} from '@portal/contract';

import { accessRequestInfo, unitLabel } from '../../access-requests.js';
import type { Reader } from '../../auth/identity.js';
import { accessRequestsOf, insertAccessRequest, type AccessRequest } from '../../db/access-requests.js';
import { signedIn } from '../../plugins/app/guards.js';

/** The unit a page belongs to, or null for a public page or a path no unit has. */
function unitOfPage(path: string): string | null {
  const unit = sectionOf(path);
  return unit === null || unit === PUBLIC ? null : unit;
}

const NO_UNIT = 'That page is open to everyone or is no page of the portal';

/**
 * A signed-in reader's side of asking for access: why a page is not theirs, asking for its
 * unit with a short reason, and their requests with the answers.
 */
const accessRequests: FastifyPluginAsyncTypebox = async (app) => {
  const { store, mailer, licences, guards } = app;

  const latestFor = async (reader: Reader, unit: string): Promise<AccessRequest | null> =>
    (await accessRequestsOf(store.db, reader.email.toLowerCase())).find((request) => request.unit === unit) ?? null;

  app.get(
    '/access/refusal',
    { schema: { querystring: RefusalQuery, response: { 200: RefusalAnswer, 404: ErrorAnswer, 503: ErrorAnswer } } },
    async (request, reply) => {
      const reader = await signedIn(request);
      const { path } = request.query;
      const unit = unitOfPage(path);
      if (unit === null) return reply.code(404).send({ error: NO_UNIT });
      const closed = await guards.requireDatabase(request, reply);
      if (closed) return closed;
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
        request: latest ? accessRequestInfo(latest) : null,
      } satisfies RefusalAnswer;
    },
  );

  app.get(
    '/access-requests',
    { preHandler: guards.requireDatabase, schema: { response: { 200: AccessRequestList, 503: ErrorAnswer } } },
    async (request) => {
      const reader = await signedIn(request);
      return { requests: (await accessRequestsOf(store.db, reader.email.toLowerCase())).map(accessRequestInfo) };
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
      const reader = await signedIn(request);
      const body = request.body;
      const unit = unitOfPage(body.path);
      if (unit === null) return reply.code(400).send({ error: NO_UNIT });
      if (canRead(reader.units, body.path)) return reply.code(409).send({ error: 'You can already read this page' });
      if (!policy.units.find((candidate) => candidate.name === unit)?.licensable)
        return reply
          .code(400)
          .send({ error: `${unitLabel(unit)} is for Norigin's own developers and cannot be asked for` });
      const closed = await guards.requireDatabase(request, reply);
      if (closed) return closed;
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
        return reply.code(409).send({ error: `You have already asked for ${unitLabel(unit)}; it awaits an answer` });
      app.audit(request, {
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
      return reply.code(201).send(accessRequestInfo(created));
    },
  );
};
export default accessRequests;
