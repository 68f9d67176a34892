import { createHmac, timingSafeEqual } from 'node:crypto';

import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { ErrorAnswer, WhatsNewAnswer } from '@portal/contract';

import { feedTokenBySecret, unsubscribe } from '../db/whats-new.js';
import { readableModels } from '../mcp/api-reference-tools.js';
import { namesPackage } from '../whats-new/model.js';
import { newsAtom, newsMarkdown, packageAtom } from '../whats-new/render.js';
import { NewsQueryError, newsFor } from '../whats-new/service.js';

export const NewsQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({ maxLength: 40, description: 'A date (2026-11-01) or time; the last visit when not given' }),
    ),
    package: Type.Optional(Type.String({ minLength: 1, maxLength: 214, pattern: '^[\\w.@/-]+$' })),
  },
  { additionalProperties: false },
);

const FeedQuery = Type.Object({ token: Type.String({ maxLength: 100 }) }, { additionalProperties: false });
const PackageParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 120, pattern: '^[\\w.-]+\\.atom$' }) });
const UnsubscribeQuery = Type.Object({ u: Type.String({ maxLength: 128 }), s: Type.String({ maxLength: 64 }) });

/** The signature of a reader's unsubscribe link: the gate's session secret over their uid. */
export function unsubscribeSignature(secret: string, uid: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${uid}`).digest('base64url');
}

/** The one-click unsubscribe link of a reader's digest (RFC 8058). */
export function unsubscribeUrl(origin: string, secret: string, uid: string): string {
  return `${origin}/mail/unsubscribe?u=${encodeURIComponent(uid)}&s=${unsubscribeSignature(secret, uid)}`;
}

const ATOM = 'application/atom+xml; charset=utf-8';

/**
 * "What's new for you" on every surface but the page itself (site/src/pages/account/whats-new.tsx,
 * which reads `/api/whats-new`): the JSON with a session or a personal token, the page's
 * Markdown for assistants, the reader's Atom feed and each package's with a feed token (which
 * reads its one feed and nothing else), and the digest's one-click unsubscribe.
 */
const whatsNew: FastifyPluginAsyncTypebox = async (app) => {
  const { store, site, guards, meter } = app;
  // A mail client's one-click unsubscribe posts a form; what it says is not needed.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data'])
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null, {}));

  const answer = async (request: FastifyRequest, reply: FastifyReply, format: 'json' | 'md') => {
    void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie, Authorization');
    const outcome = await request.reader;
    if (outcome.kind !== 'reader') return reply.refuse(outcome, 'file');
    const closed = await guards.requireDatabase(request, reply);
    if (closed) return closed;
    const { since, package: only } = request.query as { since?: string; package?: string };
    try {
      const news = await newsFor(
        { site, db: store.db },
        outcome.reader,
        { since, package: only },
        new Date(app.clock()),
      );
      if (format === 'json') return news;
      const origin = app.originOf(request);
      return reply
        .type('text/markdown; charset=utf-8')
        .send(newsMarkdown(news, (path) => new URL(path, origin).href, outcome.reader.email));
    } catch (error) {
      if (error instanceof NewsQueryError) return reply.code(400).send({ error: error.message });
      throw error;
    }
  };

  app.get(
    '/api/whats-new',
    {
      config: { token: 'read' },
      preHandler: (request, reply) => meter.admit(request, reply),
      schema: { querystring: NewsQuery, response: { 200: WhatsNewAnswer, 400: ErrorAnswer } },
    },
    (request, reply) => answer(request, reply, 'json'),
  );
  app.get(
    '/account/whats-new.md',
    {
      config: { token: 'read' },
      preHandler: (request, reply) => meter.admit(request, reply),
      schema: { querystring: NewsQuery, hide: true },
    },
    (request, reply) => answer(request, reply, 'md'),
  );

  /** The reader of a feed token for `feed`, as their access is now; null (a 404) for any other token. */
  const feedReader = async (secret: string, feed: string) => {
    const token = await feedTokenBySecret(store.db, secret);
    if (token === null || token.feed !== feed) return null;
    try {
      return await app.identity.readerByUid(token.uid);
    } catch {
      return null;
    }
  };
  const noFeed = { error: 'No such feed for this token: it was revoked, or it reads another feed' };

  app.get(
    '/feeds/whats-new.atom',
    {
      preHandler: guards.requireDatabase,
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
      schema: { querystring: FeedQuery, hide: true },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      const reader = await feedReader(request.query.token, 'whats-new');
      if (reader === null) return reply.code(404).send(noFeed);
      const origin = app.originOf(request);
      const news = await newsFor({ site, db: store.db }, reader, {}, new Date(app.clock()));
      return reply.type(ATOM).send(
        newsAtom(news, {
          origin,
          selfUrl: `${origin}/feeds/whats-new.atom?token=${request.query.token}`,
          email: reader.email,
          now: new Date(app.clock()),
        }),
      );
    },
  );

  app.get(
    '/feeds/packages/:id',
    {
      preHandler: guards.requireDatabase,
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
      schema: { params: PackageParams, querystring: FeedQuery, hide: true },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      const id = request.params.id.replace(/\.atom$/, '');
      const reader = await feedReader(request.query.token, `package:${id}`);
      const models = reader && readableModels(site, reader.units).find((m) => namesPackage(m, id));
      // A package the reader may no longer read is a feed that is not there, as for any other token.
      if (!reader || !models) return reply.code(404).send(noFeed);
      const origin = app.originOf(request);
      const news = await newsFor(
        { site, db: store.db },
        reader,
        { package: models.id },
        new Date(app.clock()),
        new Date(0),
      );
      return reply.type(ATOM).send(
        packageAtom(models, news.packages[0], {
          origin,
          selfUrl: `${origin}/feeds/packages/${id}.atom?token=${request.query.token}`,
        }),
      );
    },
  );

  // RFC 8058: the mail client POSTs `List-Unsubscribe=One-Click` to the link, with no cookie; a
  // reader who opens the link in a browser gets a page with the same button.
  const signedUid = (query: { u: string; s: string }): string | null => {
    const expected = Buffer.from(unsubscribeSignature(app.config.session.secret, query.u));
    const given = Buffer.from(query.s);
    return expected.length === given.length && timingSafeEqual(expected, given) ? query.u : null;
  };
  app.get('/mail/unsubscribe', { schema: { querystring: UnsubscribeQuery, hide: true } }, async (request, reply) => {
    if (signedUid(request.query) === null) return reply.code(400).send({ error: 'This unsubscribe link is not valid' });
    const action = `/mail/unsubscribe?u=${encodeURIComponent(request.query.u)}&s=${encodeURIComponent(request.query.s)}`;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Stop the digest · Norigin Developer Docs</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1>Stop the “What’s new for you” digest?</h1><form method="post" action="${action.replace(/&/g, '&amp;')}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Stop the digest</button></form><p>You can turn it on again on <a href="/account/whats-new">What’s new for you</a>.</p></body></html>`,
      );
  });
  app.post(
    '/mail/unsubscribe',
    {
      preHandler: guards.requireDatabase,
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: { querystring: UnsubscribeQuery, hide: true },
    },
    async (request, reply) => {
      const uid = signedUid(request.query);
      if (uid === null) return reply.code(400).send({ error: 'This unsubscribe link is not valid' });
      const stopped = await unsubscribe(store.db, uid);
      if (stopped) app.audit(request, { kind: 'digest.unsubscribed', actorUid: uid, detail: { via: 'mail' } });
      const html = (request.headers.accept ?? '').includes('text/html');
      if (!html) return reply.code(200).send({ unsubscribed: true });
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Digest stopped · Norigin Developer Docs</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1>The digest is stopped</h1><p>No more “What’s new for you” mail will be sent to you. You can turn it on again on <a href="/account/whats-new">What’s new for you</a>.</p></body></html>`,
        );
    },
  );
};
export default whatsNew;
