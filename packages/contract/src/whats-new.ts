/**
 * "What's new for you" (server/src/routes/whats-new.ts and routes/account/whats-new.ts): the
 * answer, the reader's choices, their feed tokens.
 */
import Type, { type Static } from 'typebox';

import { isoTime, nullable } from './shared.js';

export const SymbolChange = Type.Object({
  name: Type.String(),
  kind: Type.String(),
  change: Type.Union([Type.Literal('removed'), Type.Literal('changed'), Type.Literal('added')]),
  /** The symbol's reference page in the release that has it (the older one for a removed symbol). */
  url: nullable(Type.String()),
  /** The declaration before (removed, changed) and after (changed, added). */
  before: nullable(Type.String()),
  after: nullable(Type.String()),
  summary: nullable(Type.String()),
  /** How the reader uses it: they read its reference page, or a page they read names it. */
  use: nullable(Type.Union([Type.Literal('read'), Type.Literal('named')])),
});
export type SymbolChange = Static<typeof SymbolChange>;

export const ReleaseNews = Type.Object({
  version: Type.String(),
  date: isoTime,
  /** The previous release in version order, which it is compared with (null for the first). */
  comparedWith: nullable(Type.String()),
  /** A removed or changed symbol in a release that is not a new major one. */
  breaking: Type.Boolean(),
  url: Type.String(),
  apiChangesUrl: nullable(Type.String()),
  symbols: Type.Array(SymbolChange),
});
export type ReleaseNews = Static<typeof ReleaseNews>;

export const PackageNews = Type.Object({
  id: Type.String(),
  title: Type.String(),
  npm: Type.String(),
  url: Type.String(),
  watched: Type.Boolean(),
  /** How many of its removed or changed symbols the reader uses. */
  used: Type.Integer(),
  releases: Type.Array(ReleaseNews),
});
export type PackageNews = Static<typeof PackageNews>;

export const PageNews = Type.Object({
  url: Type.String(),
  title: Type.String(),
  at: isoTime,
  lastRead: nullable(isoTime),
  watched: Type.Boolean(),
});
export type PageNews = Static<typeof PageNews>;

export const WhatsNewAnswer = Type.Object({
  since: isoTime,
  sinceFrom: Type.Union([Type.Literal('last-visit'), Type.Literal('asked'), Type.Literal('default')]),
  personalOrder: Type.Boolean(),
  packages: Type.Array(PackageNews),
  changedPages: Type.Array(PageNews),
  newPages: Type.Array(PageNews),
});
export type WhatsNewAnswer = Static<typeof WhatsNewAnswer>;

const Digest = Type.Union([Type.Literal('off'), Type.Literal('release'), Type.Literal('weekly')]);

export const NewsSettingsSaved = Type.Object({
  digest: Digest,
  personalOrder: Type.Boolean(),
  digestFrom: nullable(isoTime),
});
export type NewsSettingsSaved = Static<typeof NewsSettingsSaved>;

export const NewsSettings = Type.Object({
  email: Type.String(),
  digest: Digest,
  personalOrder: Type.Boolean(),
  digestFrom: nullable(isoTime),
  watches: Type.Array(
    Type.Object({
      kind: Type.Union([Type.Literal('package'), Type.Literal('page')]),
      target: Type.String(),
      watching: Type.Boolean(),
      at: isoTime,
    }),
  ),
  /** What the portal keeps of the reader's reading. */
  kept: Type.Object({
    pages: Type.Integer(),
    views: Type.Integer(),
    from: nullable(isoTime),
    to: nullable(isoTime),
    watches: Type.Integer(),
  }),
});
export type NewsSettings = Static<typeof NewsSettings>;

export const FeedTokenRecord = Type.Object({
  id: Type.String(),
  /** `whats-new`, or `package:<id>`. */
  feed: Type.String(),
  hint: Type.String(),
  createdAt: isoTime,
  lastUsedAt: nullable(isoTime),
  revokedAt: nullable(isoTime),
});
export type FeedTokenRecord = Static<typeof FeedTokenRecord>;

export const FeedTokenList = Type.Object({ tokens: Type.Array(FeedTokenRecord) });
export type FeedTokenList = Static<typeof FeedTokenList>;

export const CreatedFeedToken = Type.Object({
  /** The secret, shown this once. */
  token: Type.String(),
  record: FeedTokenRecord,
  /** The feed's address with the token in it, for a feed reader. */
  url: Type.String(),
});
export type CreatedFeedToken = Static<typeof CreatedFeedToken>;
