import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';

import { canRead } from '@portal/access';
import {
  CreatedFeedToken,
  ErrorAnswer,
  FeedTokenList,
  NewsSettings,
  NewsSettingsSaved,
  NoContent,
} from '@portal/contract';

import {
  clearReading,
  createFeedToken,
  listFeedTokens,
  readerSettings,
  readingKept,
  revokeFeedToken,
  saveReaderSettings,
  setWatch,
  TooManyFeedTokensError,
  watchesOf,
} from '../../db/whats-new.js';
import { readableModels } from '../../mcp/api-reference-tools.js';
import { signedIn } from '../../plugins/app/guards.js';
import { namesPackage } from '../../whats-new/model.js';

const Settings = Type.Object(
  {
    digest: Type.Optional(Type.Union([Type.Literal('off'), Type.Literal('release'), Type.Literal('weekly')])),
    personalOrder: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
const WatchBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('package'), Type.Literal('page')]),
    target: Type.String({ minLength: 2, maxLength: 1024, pattern: '^/' }),
    watching: Type.Boolean(),
  },
  { additionalProperties: false },
);
const FeedTokenBody = Type.Object(
  { feed: Type.String({ minLength: 1, maxLength: 130, pattern: '^(whats-new|package:[\\w.-]+)$' }) },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * The reader's own side of "what's new" (the /account/whats-new page), with the session: the
 * digest and ordering choices, what they watch, their feed tokens, and what the portal keeps
 * of their reading, which they may clear.
 */
const whatsNewAccount: FastifyPluginAsyncTypebox = async (app) => {
  const { store, guards, site } = app;
  const limited = { rateLimit: { max: 30, timeWindow: 60_000, hook: 'preHandler' as const } };

  app.get(
    '/whats-new/settings',
    { preHandler: guards.requireDatabase, schema: { response: { 200: NewsSettings } } },
    async (request) => {
      const reader = await signedIn(request);
      const [settings, watches, kept] = await Promise.all([
        readerSettings(store.db, reader.uid),
        watchesOf(store.db, reader.uid),
        readingKept(store.db, reader.uid),
      ]);
      return { email: reader.email, ...settings, watches, kept };
    },
  );

  app.put(
    '/whats-new/settings',
    {
      preHandler: guards.requireDatabase,
      config: limited,
      schema: { body: Settings, response: { 200: NewsSettingsSaved } },
    },
    async (request) => {
      const reader = await signedIn(request);
      const saved = await saveReaderSettings(store.db, reader, request.body, new Date(app.clock()));
      app.audit(request, {
        kind: 'whats-new.settings',
        actorUid: reader.uid,
        actorEmail: reader.email,
        detail: { ...request.body },
      });
      return saved;
    },
  );

  app.put(
    '/whats-new/watches',
    {
      preHandler: guards.requireDatabase,
      config: limited,
      schema: { body: WatchBody, response: { 204: NoContent, 404: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = await signedIn(request);
      const { kind, target, watching } = request.body;
      // Only what the reader may read can be watched: anything else is a page that does not exist.
      const known =
        kind === 'page'
          ? site.lookup(target)?.kind === 'page' && canRead(reader.units, target)
          : readableModels(site, reader.units).some((m) => m.basePath === target) ||
            site.pages.some((page) => page.url.startsWith(target) && canRead(reader.units, page.url));
      if (!known || (kind === 'package' && !/^\/docs\/[^/]+\/$/.test(target)))
        return reply.code(404).send({ error: `Nothing to watch at ${target} among the pages you may read` });
      await setWatch(store.db, reader.uid, {
        kind,
        target: kind === 'page' ? (site.lookup(target)?.url ?? target) : target,
        watching,
      });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/feed-tokens',
    { preHandler: guards.requireDatabase, schema: { response: { 200: FeedTokenList } } },
    async (request) => {
      const reader = await signedIn(request);
      return { tokens: await listFeedTokens(store.db, reader.uid) };
    },
  );

  app.post(
    '/feed-tokens',
    {
      preHandler: guards.requireDatabase,
      config: limited,
      schema: { body: FeedTokenBody, response: { 201: CreatedFeedToken, 404: ErrorAnswer, 409: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = await signedIn(request);
      const { feed } = request.body;
      if (feed.startsWith('package:')) {
        const id = feed.slice('package:'.length);
        if (!readableModels(site, reader.units).some((m) => namesPackage(m, id)))
          return reply.code(404).send({ error: `No package "${id}" among those you may read` });
      }
      let made;
      try {
        made = await createFeedToken(store.db, reader, feed);
      } catch (error) {
        if (error instanceof TooManyFeedTokensError) return reply.code(409).send({ error: error.message });
        throw error;
      }
      app.audit(request, {
        kind: 'feed-token.created',
        actorUid: reader.uid,
        actorEmail: reader.email,
        detail: { token: made.record.id, feed },
      });
      const path = feed === 'whats-new' ? '/feeds/whats-new.atom' : `/feeds/packages/${feed.slice(8)}.atom`;
      return reply.code(201).send({ ...made, url: `${app.originOf(request)}${path}?token=${made.token}` });
    },
  );

  app.delete(
    '/feed-tokens/:id',
    {
      preHandler: guards.requireDatabase,
      schema: { params: IdParams, response: { 204: NoContent, 404: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = await signedIn(request);
      const revoked = await revokeFeedToken(store.db, reader.uid, request.params.id);
      if (!revoked) return reply.code(404).send({ error: 'No such feed token of yours, or it was already revoked' });
      app.audit(request, {
        kind: 'feed-token.revoked',
        actorUid: reader.uid,
        actorEmail: reader.email,
        detail: { token: revoked.id, feed: revoked.feed },
      });
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/whats-new/reading',
    {
      preHandler: guards.requireDatabase,
      config: limited,
      schema: { response: { 200: Type.Object({ views: Type.Number() }) } },
    },
    async (request) => {
      const reader = await signedIn(request);
      // Page views are written once a second off the request path: those under way go first.
      await store.views.flush(true);
      const cleared = await clearReading(store.db, reader.uid);
      app.audit(request, {
        kind: 'reading.cleared',
        actorUid: reader.uid,
        actorEmail: reader.email,
        detail: { rows: cleared.views },
      });
      return cleared;
    },
  );
};
export default whatsNewAccount;
