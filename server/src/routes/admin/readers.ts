import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';

import { policy } from '@portal/access';
import {
  EmailParams,
  ErrorAnswer,
  GroupsBody,
  InvitationAnswer,
  InvitationBody,
  NoContent,
  ReaderChange,
  ReaderPage,
  ReadersQuery,
  UidParams,
} from '@portal/contract';

import { accessOf } from '../../access-requests.js';
import { portalActionLink } from '../../auth/action-links.js';
import { ReaderDirectory, type ReaderAccount } from '../../auth/readers.js';
import { openInvitations } from '../../db/activity.js';
import type { Mail } from '../../mail.js';
import { escapeHtml } from '../../pages.js';
import { signedIn } from '../../plugins/app/guards.js';
import { administers, ReaderService, type Actor } from '../../readers-service.js';
import { countOf } from '../../refused.js';

/**
 * The invitation a reader gets by mail: with a password invitation, the link that sets their
 * password (it signs them in); with a provider invitation, where to sign in and with which
 * address.
 */
export function invitationMail(email: string, origin: string, passwordLink: string | null): Mail {
  const intro =
    "You are invited to read the Norigin Developer Docs: the guides and API references of Norigin Media's TV front-end packages.";
  const steps =
    passwordLink === null
      ? `Sign in at ${origin}/login with Google or GitHub, using the account of ${email}.`
      : `Choose your password here (the link works once, and signs you in):\n${passwordLink}\n\nAfterwards, sign in at ${origin}/login as ${email}.`;
  const html =
    passwordLink === null
      ? `<p>${escapeHtml(intro)}</p><p>Sign in at <a href="${escapeHtml(`${origin}/login`)}">${escapeHtml(`${origin}/login`)}</a> with Google or GitHub, using the account of ${escapeHtml(email)}.</p>`
      : `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(passwordLink)}">Choose your password</a> (the link works once, and signs you in).</p><p>Afterwards, sign in at <a href="${escapeHtml(`${origin}/login`)}">${escapeHtml(`${origin}/login`)}</a> as ${escapeHtml(email)}.</p>`;
  return {
    to: email,
    subject: 'Your invitation to the Norigin Developer Docs',
    text: `${intro}\n\n${steps}\n`,
    html,
  };
}

/**
 * Readers' accounts and their invitations, for administrators: the list, invitations by mail,
 * groups, disabling and removal. Every change goes through the audited service
 * (readers-service.ts), as the readers command's do, with who did what to whom.
 */
const readers: FastifyPluginAsyncTypebox = async (app) => {
  const { directory, readerIndex, store, identity, mailer, config, guards, licences } = app;

  /** The administrator behind a call, their events into the trail with the request's client address. */
  const actor = async (request: FastifyRequest): Promise<Actor> => {
    const admin = await signedIn(request);
    return { uid: admin.uid, email: admin.email, groups: admin.groups, record: (event) => app.audit(request, event) };
  };
  const service = new ReaderService({
    directory,
    added: (account) => readerIndex.update(account),
    // The reader's sessions on this server end at their next request; other servers follow within the cache TTL.
    changed: (account) => {
      readerIndex.update(account);
      void identity.forgetReader(account.uid);
    },
    removed: (uid) => {
      readerIndex.delete(uid);
      void identity.forgetReader(uid);
    },
    database: () => (store.readyNow ? store.db : null),
  });

  app.get(
    '/readers',
    { schema: { querystring: ReadersQuery, response: { 200: ReaderPage, 400: ErrorAnswer } } },
    async (request) => {
      const { page, limit, ...query } = request.query;
      // A group filter names a group of the policy: a typo would find nothing, silently.
      if (query.group !== undefined) ReaderDirectory.checkGroups([query.group]);
      // A reader reads what their groups, their organisation's licences and their grants give.
      const reads = (reader: ReaderAccount) =>
        reader.email !== null &&
        licences.unitsOf({ email: reader.email, emailVerified: reader.emailVerified, groups: reader.groups }).units
          .length > 0;
      const result = await readerIndex.query({
        ...query,
        reads,
        page: countOf(page, 100_000),
        limit: countOf(limit, 200),
      });
      const access = Object.fromEntries(result.readers.map((reader) => [reader.uid, accessOf(licences, reader)]));
      const invitations = store.readyNow ? await openInvitations(store.db) : [];
      // What the page needs to say why before anyone clicks: whose account this is, and
      // whether an administrator is the last one (readers-service.ts refuses either way).
      const administrators = await readerIndex.count(administers);
      const self = (await signedIn(request)).uid;
      return { ...result, access, invitations, groups: [...policy.groups], self, administrators };
    },
  );

  app.post(
    '/invitations',
    { schema: { body: InvitationBody, response: { 201: InvitationAnswer, 400: ErrorAnswer, 409: ErrorAnswer } } },
    async (request, reply) => {
      const { body } = request;
      const address = body.email.trim().toLowerCase();
      const origin = app.originOf(request);
      const mailed = mailer !== null;
      const inbox = config.mail?.inboxUrl ? { inboxUrl: config.mail.inboxUrl } : {};
      if (body.method === 'provider') {
        const closed = await guards.requireDatabase(request, reply);
        if (closed) return closed;
        await service.inviteByProvider(await actor(request), address, body.groups, store.db);
        mailer?.send(invitationMail(address, origin, null));
        return reply.code(201).send({ invitation: { email: address, groups: body.groups }, mailed, ...inbox });
      }
      const invited = await service.invite(await actor(request), address, body.groups);
      const { account } = invited;
      const passwordLink = portalActionLink(invited.passwordLink, origin, { invite: true });
      mailer?.send(invitationMail(address, origin, passwordLink));
      return reply.code(201).send({ account, passwordLink, mailed, ...inbox });
    },
  );

  app.delete(
    '/invitations/:email',
    {
      preHandler: guards.requireDatabase,
      schema: { params: EmailParams, response: { 204: NoContent, 404: ErrorAnswer, 503: ErrorAnswer } },
    },
    async (request, reply) => {
      const { email: address } = request.params;
      if (!(await service.withdrawInvitation(await actor(request), address, store.db)))
        return reply.code(404).send({ error: `No open invitation for ${address}` });
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/readers/:uid/groups',
    {
      schema: {
        params: UidParams,
        body: GroupsBody,
        response: { 200: ReaderChange, 400: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer },
      },
    },
    async (request) => service.setGroups(await actor(request), request.params.uid, request.body.groups),
  );

  for (const action of ['disable', 'enable'] as const)
    app.post(
      `/readers/:uid/${action}`,
      { schema: { params: UidParams, response: { 200: ReaderChange, 404: ErrorAnswer, 409: ErrorAnswer } } },
      async (request) => service.setDisabled(await actor(request), request.params.uid, action === 'disable'),
    );

  // One's own account and the last administrator are refused by the service (409), as at the command line.
  app.delete(
    '/readers/:uid',
    { schema: { params: UidParams, response: { 204: NoContent, 404: ErrorAnswer, 409: ErrorAnswer } } },
    async (request, reply) => {
      await service.remove(await actor(request), request.params.uid);
      return reply.code(204).send(null);
    },
  );
};
export default readers;
