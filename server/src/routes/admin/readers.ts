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

import { ReaderDirectory } from '../../auth/readers.js';
import { openInvitations } from '../../db/activity.js';
import type { Mail } from '../../mail.js';
import { signedIn } from '../../plugins/app/guards.js';
import { administers, ReaderService, type Actor } from '../../readers-service.js';
import { countOf } from '../../refused.js';

/**
 * The invitation a reader gets by mail: with a password invitation, the link that sets their
 * password (it signs them in); with a provider invitation, where to sign in and with which
 * address.
 */
export function invitationMail(email: string, origin: string, passwordLink: string | null): Mail {
  const steps =
    passwordLink === null
      ? `Sign in at ${origin}/login with Google or GitHub, using the account of ${email}.`
      : `Choose your password here (the link works once):\n${passwordLink}\n\nThen sign in at ${origin}/login as ${email}.`;
  return {
    to: email,
    subject: 'Your invitation to the Norigin Developer Docs',
    text: `You are invited to read the Norigin Developer Docs: the guides and API references of Norigin Media's TV front-end packages.\n\n${steps}\n`,
  };
}

/**
 * Readers' accounts and their invitations, for administrators: the list, invitations by mail,
 * groups, disabling and removal. Every change goes through the audited service
 * (readers-service.ts), as the readers command's do, with who did what to whom.
 */
const readers: FastifyPluginAsyncTypebox = async (app) => {
  const { directory, readerIndex, store, identity, mailer, config, guards } = app;

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
      const result = await readerIndex.query({ ...query, page: countOf(page, 100_000), limit: countOf(limit, 200) });
      const invitations = store.readyNow ? await openInvitations(store.db) : [];
      // What the page needs to say why before anyone clicks: whose account this is, and
      // whether an administrator is the last one (readers-service.ts refuses either way).
      const administrators = await readerIndex.count(administers);
      const self = (await signedIn(request)).uid;
      return { ...result, invitations, groups: [...policy.groups], self, administrators };
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
      const { account, passwordLink } = await service.invite(await actor(request), address, body.groups);
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
