/**
 * Every request body, query and answer of the portal's JSON API, as TypeBox schemas: the
 * server validates and serialises with them, the site takes their types, and the OpenAPI
 * document is made from them.
 */
import Type, { type Static } from 'typebox';

import {
  AUDIT_CURSOR_PATTERN,
  MAX_GROUPS,
  MAX_IMPORT_BYTES,
  MAX_TOKEN_DAYS,
  MAX_UNITS,
  TOKEN_CURSOR_PATTERN,
} from './names.js';
import { AccessSource, MyAccessAnswer } from './access-requests.js';
import { Day, isoTime, nullable } from './shared.js';

/** A whole number in a query string: query strings are text, and bodies are taken as sent. */
const count = (max: number) => Type.String({ pattern: `^[1-9][0-9]{0,${String(max).length - 1}}$` });

// ---- shared -------------------------------------------------------------------------------

/** Every 4xx and 5xx answer of the API: a short reason a person can act on. */
export const ErrorAnswer = Type.Object({ error: Type.String(), code: Type.Optional(Type.String()) });
export type ErrorAnswer = Static<typeof ErrorAnswer>;
/** A 204's (empty) answer. */
export const NoContent = Type.Null({ description: 'No content' });
/** A 202's (empty) answer: taken, to be recorded. */
export const Accepted = Type.Null({ description: 'Accepted' });

export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' });
export const GroupList = Type.Array(Type.String(), { maxItems: MAX_GROUPS, uniqueItems: true });

export const GroupInfo = Type.Object({ name: Type.String(), label: Type.String() });
export type GroupInfo = Static<typeof GroupInfo>;

// ---- session ------------------------------------------------------------------------------

export const SessionStart = Type.Object(
  { idToken: Type.String({ minLength: 1, maxLength: 8192 }) },
  { additionalProperties: false },
);
export type SessionStart = Static<typeof SessionStart>;

/** Who is signed in: the answer of `GET /api/session` and of a sign-in. */
/** `units`: the access units the reader holds, for the site to show and search exactly those. */
export const SessionAnswer = Type.Object({
  email: Type.String(),
  groups: Type.Array(Type.String()),
  units: Type.Array(Type.String()),
  /**
   * The packages the reader stops reading within LICENCE_NOTICE_DAYS because their
   * organisation's licence ends (nothing else gives them), each with its end; absent: none.
   */
  licenceEnding: Type.Optional(
    nullable(
      Type.Object({
        organisation: Type.String(),
        units: Type.Array(Type.Object({ unit: Type.String(), unitLabel: Type.String(), endsAt: isoTime })),
      }),
    ),
  ),
});
export type SessionAnswer = Static<typeof SessionAnswer>;

/** A refused sign-in (`code` says why); for an account without access, who it is and whom to ask. */
export const SessionRefusal = Type.Object({
  error: Type.String(),
  code: Type.Optional(Type.String()),
  email: Type.Optional(nullable(Type.String())),
  requestAccess: Type.Optional(Type.String()),
});
export type SessionRefusal = Static<typeof SessionRefusal>;

export const AuthConfig = Type.Object({
  apiKey: Type.String(),
  authDomain: Type.String(),
  projectId: Type.String(),
  emulatorUrl: nullable(Type.String()),
});
export type AuthConfig = Static<typeof AuthConfig>;

// ---- readers' activity --------------------------------------------------------------------

const PagePath = Type.String({ minLength: 1, maxLength: 512, pattern: '^/' });

export const FeedbackQuery = Type.Object({ path: PagePath }, { additionalProperties: false });
export const FeedbackBody = Type.Object(
  { path: PagePath, helpful: Type.Boolean(), comment: Type.Optional(nullable(Type.String({ maxLength: 2000 }))) },
  { additionalProperties: false },
);
export type FeedbackBody = Static<typeof FeedbackBody>;
export const Feedback = Type.Object({
  path: Type.String(),
  helpful: Type.Boolean(),
  comment: nullable(Type.String()),
  updatedAt: isoTime,
});
export type Feedback = Static<typeof Feedback>;
export const FeedbackAnswer = Type.Object({ feedback: nullable(Feedback) });
export type FeedbackAnswer = Static<typeof FeedbackAnswer>;

export const SearchEvent = Type.Object(
  { query: Type.String({ minLength: 1, maxLength: 200 }), results: Type.Integer({ minimum: 0, maximum: 10_000 }) },
  { additionalProperties: false },
);
export type SearchEvent = Static<typeof SearchEvent>;

// ---- search API ---------------------------------------------------------------------------

export const SearchQuery = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 200 }),
    limit: Type.Optional(Type.String({ pattern: '^([1-9]|1[0-9]|20)$' })),
    version: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,6}\\.[0-9]{1,6}\\.[0-9]{1,6}$',
        description:
          'A release of a synced package, such as 2.3.0: only its pages. Without it, each package at its newest release.',
      }),
    ),
  },
  { additionalProperties: false },
);
/** The search box's files of its bundles (GET /api/search/files): the bundles, comma-separated. */
export const SearchFilesQuery = Type.Object(
  {
    bundles: Type.String({
      minLength: 1,
      maxLength: 16384,
      description: 'Search bundles, comma-separated, as the search box opens them: /search/public/,/search/player/',
    }),
  },
  { additionalProperties: false },
);
export const SearchResult = Type.Object({
  title: Type.String(),
  /** The page's path on the site. */
  url: Type.String(),
  /** The same page as Markdown. */
  mdUrl: Type.String(),
  /** Text around the matched words, plain. */
  snippet: Type.String(),
});
export type SearchResult = Static<typeof SearchResult>;
export const SearchAnswer = Type.Object({
  query: Type.String(),
  version: Type.Optional(Type.String()),
  results: Type.Array(SearchResult),
});
export type SearchAnswer = Static<typeof SearchAnswer>;

// ---- personal access tokens ---------------------------------------------------------------

/** A token as its reader sees it: never its secret, only its first characters. */
export const TokenRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** The prefix and four characters, e.g. `norigin_pat_Ab3x…`, to tell tokens apart. */
  hint: Type.String(),
  createdAt: isoTime,
  expiresAt: isoTime,
  lastUsedAt: nullable(isoTime),
  revokedAt: nullable(isoTime),
  /** `read`: the agent surfaces (llms, search, MCP, Markdown); `admin`: the administration API only. */
  scope: Type.Union([Type.Literal('read'), Type.Literal('admin')]),
});
export type TokenRecord = Static<typeof TokenRecord>;

export const TokenList = Type.Object({
  email: Type.String(),
  groups: Type.Array(Type.String()),
  groupLabels: Type.Array(GroupInfo),
  tokens: Type.Array(TokenRecord),
  /** The longest life the server gives a token, in days. */
  maxDays: Type.Integer(),
  /** The most live tokens a reader may hold at once. */
  maxLive: Type.Integer(),
});
export type TokenList = Static<typeof TokenList>;

export const TokenCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' }),
    days: Type.Integer({ minimum: 1, maximum: MAX_TOKEN_DAYS }),
    /** `admin` (administrators only): a token for automation of `/api/admin/…`, and nothing else. Default `read`. */
    scope: Type.Optional(Type.Union([Type.Literal('read'), Type.Literal('admin')])),
  },
  { additionalProperties: false },
);
export type TokenCreate = Static<typeof TokenCreate>;

export const CreatedToken = Type.Object({
  /** The secret itself: in this answer only, never again. */
  token: Type.String(),
  record: TokenRecord,
});
export type CreatedToken = Static<typeof CreatedToken>;

export const TokenIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

/** A reader's token as administrators see it: whose it is, too. */
export const AdminToken = Type.Intersect([TokenRecord, Type.Object({ uid: Type.String(), email: Type.String() })]);
export type AdminToken = Static<typeof AdminToken>;
export const AdminTokenQuery = Type.Object(
  {
    /** A reader's e-mail (in any case) or uid. */
    reader: Type.Optional(Type.String({ maxLength: 254 })),
    /** The `next` of the page before. */
    before: Type.Optional(Type.String({ pattern: TOKEN_CURSOR_PATTERN })),
    limit: Type.Optional(count(200)),
  },
  { additionalProperties: false },
);
export type AdminTokenQuery = Static<typeof AdminTokenQuery>;
export const AdminTokenList = Type.Object({
  tokens: Type.Array(AdminToken),
  /** The `before` of the next page, or null on the last. */
  next: nullable(Type.String()),
});
export type AdminTokenList = Static<typeof AdminTokenList>;

// ---- connected apps: clients a reader authorised through OAuth (/mcp) -------------------------

/** A client a reader authorised to read for them, until revoked. */
export const ConnectedApp = Type.Object({
  /** The authorisation's id (revoking it names this). */
  id: Type.String(),
  /** The client's own name, as it registered itself: not verified by the portal. */
  clientName: Type.String(),
  clientId: Type.String(),
  authorisedAt: isoTime,
  lastUsedAt: nullable(isoTime),
  expiresAt: nullable(isoTime),
});
export type ConnectedApp = Static<typeof ConnectedApp>;
export const ConnectedAppList = Type.Object({ apps: Type.Array(ConnectedApp) });
export type ConnectedAppList = Static<typeof ConnectedAppList>;
export const ConnectedAppParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
/** Administrators: one reader's apps, by their e-mail (in any case) or uid. */
export const AdminAppQuery = Type.Object(
  { reader: Type.String({ minLength: 1, maxLength: 254 }) },
  { additionalProperties: false },
);
export type AdminAppQuery = Static<typeof AdminAppQuery>;
export const AdminAppList = Type.Object({
  uid: Type.String(),
  email: nullable(Type.String()),
  apps: Type.Array(ConnectedApp),
});
export type AdminAppList = Static<typeof AdminAppList>;

// ---- administration: readers --------------------------------------------------------------

/** An account as an administrator sees it: who, in which groups, and why. */
export const ReaderAccount = Type.Object({
  uid: Type.String(),
  email: nullable(Type.String()),
  emailVerified: Type.Boolean(),
  disabled: Type.Boolean(),
  /** What an administrator set (the `groups` custom claim). */
  claimedGroups: Type.Array(Type.String()),
  /** What the account reads with: the claim plus the e-mail-domain rules. Empty: no access. */
  groups: Type.Array(Type.String()),
  createdAt: nullable(isoTime),
  lastSignInAt: nullable(isoTime),
  /** `password`, `github.com`, … */
  providers: Type.Array(Type.String()),
});
export type ReaderAccount = Static<typeof ReaderAccount>;

export const Invitation = Type.Object({
  email: Type.String(),
  groups: Type.Array(Type.String()),
  invitedBy: Type.String(),
  createdAt: isoTime,
});
export type Invitation = Static<typeof Invitation>;

export const ReadersQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 254 })),
    group: Type.Optional(Type.String()),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('no-access')])),
    sort: Type.Optional(Type.Union([Type.Literal('email'), Type.Literal('created'), Type.Literal('last-sign-in')])),
    page: Type.Optional(count(100_000)),
    limit: Type.Optional(count(200)),
  },
  { additionalProperties: false },
);
export type ReadersQuery = Static<typeof ReadersQuery>;

export const ReaderPage = Type.Object({
  readers: Type.Array(ReaderAccount),
  /** What each reader of the page reads, and where each part comes from, by uid. */
  access: Type.Record(Type.String(), MyAccessAnswer),
  total: Type.Integer(),
  page: Type.Integer(),
  pages: Type.Integer(),
  invitations: Type.Array(Invitation),
  groups: Type.Array(GroupInfo),
  /** The caller's own account: the server refuses to disable, remove or demote it. */
  self: nullable(Type.String()),
  /** How many administrators can sign in now: the last one cannot be disabled, removed or demoted. */
  administrators: Type.Integer(),
});
export type ReaderPage = Static<typeof ReaderPage>;

export const InvitationBody = Type.Object(
  {
    email: Email,
    groups: Type.Array(Type.String(), { minItems: 1, maxItems: MAX_GROUPS, uniqueItems: true }),
    // password: the account is made now and the reader sets a password from a link;
    // provider: the reader signs in with GitHub (or another provider) with this e-mail.
    method: Type.Union([Type.Literal('password'), Type.Literal('provider')]),
  },
  { additionalProperties: false },
);
export type InvitationBody = Static<typeof InvitationBody>;

export const InvitationAnswer = Type.Object({
  account: Type.Optional(ReaderAccount),
  passwordLink: Type.Optional(Type.String()),
  invitation: Type.Optional(Type.Object({ email: Type.String(), groups: Type.Array(Type.String()) })),
  /** Whether the invitation was handed to the mail server (SMTP_URL) for the reader. */
  mailed: Type.Optional(Type.Boolean()),
  /** In development, the mail catcher's inbox where the message can be read. */
  inboxUrl: Type.Optional(Type.String()),
});
export type InvitationAnswer = Static<typeof InvitationAnswer>;

export const GroupsBody = Type.Object({ groups: GroupList }, { additionalProperties: false });
export type GroupsBody = Static<typeof GroupsBody>;

/** What an administrator's change did: the account before and after. */
export const ReaderChange = Type.Object({ before: ReaderAccount, after: ReaderAccount });
export type ReaderChange = Static<typeof ReaderChange>;

export const UidParams = Type.Object(
  { uid: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
export const EmailParams = Type.Object({ email: Email }, { additionalProperties: false });

// ---- administration: audit trail and insights ----------------------------------------------

export const AuditRow = Type.Object({
  id: Type.String(),
  at: isoTime,
  kind: Type.String(),
  actorUid: nullable(Type.String()),
  actorEmail: nullable(Type.String()),
  subjectUid: nullable(Type.String()),
  subjectEmail: nullable(Type.String()),
  path: nullable(Type.String()),
  groups: Type.Array(Type.String()),
  detail: Type.Record(Type.String(), Type.Unknown()),
  clientIp: nullable(Type.String()),
  demo: Type.Boolean(),
});
export type AuditRow = Static<typeof AuditRow>;

export const AuditPage = Type.Object({
  events: Type.Array(AuditRow),
  /** The `before` of the next page, or null on the last. */
  next: nullable(Type.String()),
  kinds: Type.Array(Type.String()),
});
export type AuditPage = Static<typeof AuditPage>;

export const AuditQuery = Type.Object(
  {
    /** Kinds of event, separated by commas. */
    kind: Type.Optional(Type.String({ maxLength: 1000 })),
    /** A reader's e-mail or uid, as actor or subject. */
    reader: Type.Optional(Type.String({ maxLength: 254 })),
    from: Type.Optional(isoTime),
    to: Type.Optional(isoTime),
    /** The `next` of the page before. */
    before: Type.Optional(Type.String({ pattern: AUDIT_CURSOR_PATTERN })),
    limit: Type.Optional(count(500)),
    /** A download of everything the filter matches (up to 100,000 events) instead of a page. */
    format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('json')])),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const InsightsQuery = Type.Object(
  {
    group: Type.Optional(Type.String({ maxLength: 64 })),
    /** Only the readers of this organisation (an id): placed there, or at one of its verified domains. */
    organisation: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    days: Type.Optional(count(3650)),
  },
  { additionalProperties: false },
);
export type InsightsQuery = Static<typeof InsightsQuery>;

const PathCount = Type.Object({ path: Type.String(), views: Type.Integer(), readers: Type.Integer() });
const QueryCount = Type.Object({ query: Type.String(), times: Type.Integer() });

export const Insights = Type.Object({
  period: Type.Object({
    from: isoTime,
    to: isoTime,
    group: nullable(Type.String()),
    organisation: Type.Optional(nullable(Type.String())),
  }),
  views: Type.Object({
    total: Type.Integer(),
    readers: Type.Integer(),
    /** The views readers made themselves, with their session (the rest: their assistants'). */
    own: Type.Integer(),
    byDay: Type.Array(Type.Object({ day: Type.String(), views: Type.Integer() })),
  }),
  mostRead: Type.Array(PathCount),
  leastRead: Type.Array(PathCount),
  neverRead: Type.Array(Type.String()),
  /** The readers' own searches, in the site's search box. */
  searches: Type.Object({
    total: Type.Integer(),
    withoutResults: Type.Integer(),
    top: Type.Array(QueryCount),
    failed: Type.Array(Type.Object({ query: Type.String(), times: Type.Integer(), lastAt: isoTime })),
  }),
  /** What assistants did for readers: MCP, the search API, `.md` and llms files with a token or through OAuth. */
  assistants: Type.Object({
    views: Type.Integer(),
    readers: Type.Integer(),
    searches: Type.Integer(),
    withoutResults: Type.Integer(),
    clients: Type.Array(
      Type.Object({
        kind: Type.Union([Type.Literal('token'), Type.Literal('oauth')]),
        name: Type.String(),
        views: Type.Integer(),
        searches: Type.Integer(),
        withoutResults: Type.Integer(),
      }),
    ),
    topSearches: Type.Array(QueryCount),
    failed: Type.Array(
      Type.Object({ query: Type.String(), times: Type.Integer(), lastAt: isoTime, clients: Type.Array(Type.String()) }),
    ),
  }),
  ratings: Type.Array(
    Type.Object({
      path: Type.String(),
      helpful: Type.Integer(),
      notHelpful: Type.Integer(),
      comments: Type.Array(Type.Object({ helpful: Type.Boolean(), comment: Type.String(), at: isoTime })),
    }),
  ),
  demo: Type.Boolean(),
});
export type Insights = Static<typeof Insights>;

/** Every page's title and unit, for the insights to name pages by (administrators only). */
export const InsightsPages = Type.Object({
  pages: Type.Array(
    Type.Object({
      path: Type.String(),
      title: Type.String(),
      unit: nullable(Type.String()),
      unitLabel: nullable(Type.String()),
    }),
  ),
});
export type InsightsPages = Static<typeof InsightsPages>;

/** The insights page's answer: the figures and the groups to filter by. */
export const InsightsAnswer = Type.Intersect([
  Insights,
  Type.Object({
    groups: Type.Array(GroupInfo),
    /** The organisations the insights can be filtered by. */
    organisations: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  }),
]);
export type InsightsAnswer = Static<typeof InsightsAnswer>;

// ---- package sources and release hooks --------------------------------------------------

/** A rebuild a release hook asked for: a job of the build queue, the same on every replica. */
export const RebuildJob = Type.Object({
  /** The queue's id for the job (a UUID). */
  id: Type.String(),
  source: Type.String(),
  /** What asked for it, such as "release v3.3.1 of NoriginMedia/Norigin-Spatial-Navigation". */
  reason: Type.String(),
  state: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('served'),
    Type.Literal('unchanged'),
    Type.Literal('failed'),
  ]),
  queuedAt: isoTime,
  startedAt: nullable(isoTime),
  finishedAt: nullable(isoTime),
  /** The end of the rebuild's output when it failed. */
  error: nullable(Type.String()),
});
export type RebuildJob = Static<typeof RebuildJob>;

/** One source of site/sources.yaml as the content cache last saw it. */
export const SourceState = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  /** The npm package, or the git repository. */
  origin: Type.String(),
  fetchedAt: nullable(isoTime),
  /** Whether the last sync could not reach the origin and kept the cache. */
  offline: Type.Boolean(),
  /** The versions the site publishes, newest first. */
  versions: Type.Array(Type.String()),
  /** Releases the origin has in all (the release history lists them). */
  releases: Type.Integer(),
  /** Releases that could not be published (the trust boundary or the site build refused them), and why. */
  refused: Type.Array(Type.Object({ version: Type.String(), reason: Type.String(), at: nullable(isoTime) })),
  /** What was left out of a published release (a file's name or size, an export's name), and why. */
  notes: Type.Array(Type.Object({ version: Type.String(), note: Type.String() })),
  /** Why the last sync of this source failed, when it did (the cache's copy is what is served). */
  error: nullable(Type.String()),
});
export type SourceState = Static<typeof SourceState>;

/** The administration's view of the package sources: their cache, the served build and the hooks' rebuilds. */
export const SourcesOverview = Type.Object({
  sources: Type.Array(SourceState),
  syncedAt: nullable(isoTime),
  /** The build this replica serves (its manifest's hash) and since when. */
  build: Type.Object({ id: Type.String(), files: Type.Integer(), servedSince: isoTime }),
  /** Whether release hooks are on (SOURCES_HOOK_SECRET is set). */
  hooks: Type.Boolean(),
  jobs: Type.Array(RebuildJob),
});
export type SourcesOverview = Static<typeof SourcesOverview>;

/** A build of the site published as an immutable bundle (server/src/releases): the live one is served everywhere. */
export const SiteReleaseInfo = Type.Object({
  id: Type.Integer(),
  /** The bundle's id: the SHA-256 of its manifest. */
  bundle: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  files: Type.Integer(),
  bytes: Type.Integer(),
  /** Each synced source's published versions it was built from. */
  sources: Type.Record(Type.String(), Type.Array(Type.String())),
  /** What made it, such as "rebuild 12 (navigation)". */
  job: Type.String(),
  builtAt: isoTime,
  /** live: served by every replica; kept: ready to be served again; collected: deleted from the store. */
  state: Type.Union([Type.Literal('live'), Type.Literal('kept'), Type.Literal('collected')]),
  liveSince: nullable(isoTime),
  /** Who last made it live by hand (a rollback); null when a build did. */
  madeLiveBy: nullable(Type.String()),
});
export type SiteReleaseInfo = Static<typeof SiteReleaseInfo>;

/** The site releases, and what this replica serves of them. */
export const SiteReleasesOverview = Type.Object({
  /** Where the bundles are kept (a folder, or s3://bucket/prefix). */
  store: Type.String(),
  releases: Type.Array(SiteReleaseInfo),
  /** The live release's bundle this replica serves; null while it serves the build it started with. */
  serving: nullable(Type.String()),
  /** The last release this replica could not serve, and why. */
  refused: nullable(Type.Object({ bundle: Type.String(), error: Type.String(), at: isoTime })),
});
export type SiteReleasesOverview = Static<typeof SiteReleasesOverview>;

/** A release hook's answer: the rebuilds it queued (one per source it names), or why it did nothing. */
export const HookAnswer = Type.Object({
  jobs: Type.Array(RebuildJob),
  ignored: Type.Optional(Type.String()),
});
export type HookAnswer = Static<typeof HookAnswer>;

// ---- organisations, licences and groups (who reads which unit) -----------------------------

/** A unit's name, as the access policy spells it. */
const UnitName = Type.String({ pattern: '^[a-z][a-z0-9-]{0,47}$' });
const UnitList = Type.Array(UnitName, { minItems: 1, maxItems: MAX_UNITS, uniqueItems: true });
const Domain = Type.String({
  minLength: 3,
  maxLength: 253,
  pattern: '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$',
});
/** An organisation's or a group's id: lower-case letters, digits and dashes. */
const Slug = Type.String({ pattern: '^[a-z][a-z0-9-]{0,47}$' });

/** A unit of the policy, with its label: what a licence or a group can give. */
export const UnitInfo = Type.Object({ name: Type.String(), label: Type.String() });
export type UnitInfo = Static<typeof UnitInfo>;

export const LicenceInfo = Type.Object({
  id: Type.String(),
  units: Type.Array(Type.String()),
  /** Units the policy no longer has: the grant stays and reads nothing. */
  orphaned: Type.Array(Type.String()),
  endsAt: nullable(isoTime),
  /** Whether it reads now (it has not ended). */
  live: Type.Boolean(),
  createdAt: isoTime,
  createdBy: Type.String(),
});
export type LicenceInfo = Static<typeof LicenceInfo>;

export const OrganisationInfo = Type.Object({
  id: Type.String(),
  name: Type.String(),
  domains: Type.Array(Type.String()),
  contact: nullable(Type.String()),
  licences: Type.Array(LicenceInfo),
  /** Readers placed in it by an administrator (others belong by their e-mail's domain). */
  members: Type.Array(Type.String()),
  /**
   * Readers who belong by their verified e-mail's domain and are placed nowhere (in the
   * overview `GET /api/admin/access` answers; not in an audit event's before and after).
   */
  domainMembers: Type.Optional(Type.Array(Type.String())),
  /** Its own identity provider, when it has one (`PUT /api/admin/organisations/{id}/sign-in`). */
  signIn: Type.Optional(
    nullable(Type.Object({ provider: Type.String(), name: Type.String(), required: Type.Boolean() })),
  ),
});
export type OrganisationInfo = Static<typeof OrganisationInfo>;

export const AccessGroupInfo = Type.Object({
  name: Type.String(),
  label: Type.String(),
  units: Type.Array(Type.String()),
  orphaned: Type.Array(Type.String()),
  members: Type.Array(Type.String()),
});
export type AccessGroupInfo = Static<typeof AccessGroupInfo>;

/** `GET /api/admin/access`: the units, the organisations with their licences, the groups. */
export const AccessOverview = Type.Object({
  units: Type.Array(UnitInfo),
  organisations: Type.Array(OrganisationInfo),
  groups: Type.Array(AccessGroupInfo),
});
export type AccessOverview = Static<typeof AccessOverview>;

export const OrganisationBody = Type.Object(
  {
    id: Slug,
    name: Type.String({ minLength: 1, maxLength: 120 }),
    domains: Type.Array(Domain, { maxItems: 20, uniqueItems: true }),
    contact: Type.Optional(nullable(Email)),
  },
  { additionalProperties: false },
);
export type OrganisationBody = Static<typeof OrganisationBody>;

export const OrganisationChange = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    domains: Type.Optional(Type.Array(Domain, { maxItems: 20, uniqueItems: true })),
    contact: Type.Optional(nullable(Email)),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type OrganisationChange = Static<typeof OrganisationChange>;

export const LicenceBody = Type.Object(
  { units: UnitList, endsOn: Type.Optional(nullable(Day)) },
  { additionalProperties: false },
);
export type LicenceBody = Static<typeof LicenceBody>;

export const LicenceChange = Type.Object(
  { units: Type.Optional(UnitList), endsOn: Type.Optional(nullable(Day)) },
  { additionalProperties: false, minProperties: 1 },
);
export type LicenceChange = Static<typeof LicenceChange>;

export const AccessGroupBody = Type.Object(
  { label: Type.String({ minLength: 1, maxLength: 120 }), units: UnitList },
  { additionalProperties: false },
);
export type AccessGroupBody = Static<typeof AccessGroupBody>;

export const MembershipBody = Type.Object(
  {
    /** null: the organisation of the reader's e-mail domain, if any. */
    organisation: nullable(Slug),
    groups: Type.Array(Slug, { maxItems: MAX_GROUPS, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type MembershipBody = Static<typeof MembershipBody>;

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * `PUT /api/admin/organisations/{id}/sign-in`: the organisation's identity provider, an OIDC or
 * SAML provider of Firebase Authentication (`oidc.…`, `saml.…`), the name the sign-in page
 * shows, and whether its readers must use it.
 */
export const OrganisationSignInBody = Type.Object(
  {
    provider: Type.String({ pattern: '^(oidc|saml)\\.[A-Za-z0-9][A-Za-z0-9._-]{0,62}$' }),
    name: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' }),
    required: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type OrganisationSignInBody = Static<typeof OrganisationSignInBody>;

/** `POST /api/admin/organisations/{id}/scim-tokens`: a name for the client that will hold it. */
export const ScimTokenBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' }) },
  { additionalProperties: false },
);
/** The new token: its secret is shown this once. */
export const ScimTokenAnswer = Type.Object({ id: Type.String(), name: Type.String(), token: Type.String() });
export const ScimTokenParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  token: Type.String({ minLength: 1, maxLength: 64 }),
});

/** `PUT /api/admin/organisations/{id}/scim-groups`: the groups its SCIM client may put its readers in. */
export const ScimGroupsBody = Type.Object(
  { groups: Type.Array(Slug, { maxItems: 50, uniqueItems: true }) },
  { additionalProperties: false },
);

/** `GET /api/admin/organisations/{id}/provisioning`: its sign-in, SCIM tokens, offered groups and last calls. */
export const ProvisioningOverview = Type.Object({
  organisation: Type.String(),
  signIn: nullable(Type.Object({ provider: Type.String(), name: Type.String(), required: Type.Boolean() })),
  endpoint: Type.String(),
  groups: Type.Array(Type.String()),
  tokens: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      hint: Type.String(),
      createdAt: Type.String(),
      createdBy: Type.String(),
      lastUsedAt: nullable(Type.String()),
      revokedAt: nullable(Type.String()),
    }),
  ),
  readers: Type.Integer(),
  calls: Type.Array(
    Type.Object({
      at: Type.String(),
      method: Type.String(),
      path: Type.String(),
      status: Type.Integer(),
      detail: nullable(Type.String()),
      token: nullable(Type.String()),
    }),
  ),
});
export type ProvisioningOverview = Static<typeof ProvisioningOverview>;

/** `GET /api/sign-in-options?email=`: how a reader at that address signs in (public; says only the domain's way). */
export const SignInOptionsQuery = Type.Object({ email: Type.String({ minLength: 3, maxLength: 320 }) });
export const SignInOptions = Type.Object({
  /** The organisation's provider, when its domain has one. */
  provider: nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  /** A password (and the site's other ways) may be used. */
  password: Type.Boolean(),
});
export type SignInOptions = Static<typeof SignInOptions>;
export const UnitParams = Type.Object({ unit: Type.String({ minLength: 1, maxLength: 64 }) });

/** `GET /api/admin/units/{unit}/readers`: who can read a package, and why. */
export const UnitReaders = Type.Object({
  unit: Type.String(),
  unitLabel: Type.String(),
  /** The groups that read it: the policy's own (staff…) and the administrators'. */
  groups: Type.Array(Type.Object({ name: Type.String(), label: Type.String(), policy: Type.Boolean() })),
  /** The organisations whose live licences give it, with the last day (null: no end) and how many readers it gives the package to. */
  organisations: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), endsAt: nullable(isoTime), readers: Type.Integer() }),
  ),
  /** Every reader the portal knows who reads it (an account, or a reader added by name), each with every reason. */
  readers: Type.Array(Type.Object({ email: Type.String(), sources: Type.Array(AccessSource) })),
});
export type UnitReaders = Static<typeof UnitReaders>;
export const NameParams = Type.Object({ name: Slug });

/** What a change of licences or groups answers: the overview as it is now. */
export const LicenceAnswer = Type.Object({ id: Type.String() });
export type LicenceAnswer = Static<typeof LicenceAnswer>;

// ---- readers' memberships as CSV (import with a preview, export) ------------------------------

/** `POST /api/admin/readers/import`: a CSV file (`text/csv`) of `email,organisation,groups`. */
export const MembershipCsv = Type.String({
  maxLength: MAX_IMPORT_BYTES,
  description: 'CSV: email,organisation,groups',
});

export const ImportQuery = Type.Object(
  {
    /** `true` applies the file (all rows or none); without it the answer is a preview and nothing changes. */
    apply: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  },
  { additionalProperties: false },
);
export type ImportQuery = Static<typeof ImportQuery>;

/** What one row of the file does to its reader. */
export const ImportChange = Type.Object({
  /** The row's line in the file (the header is line 1). */
  line: Type.Integer(),
  email: Type.String(),
  change: Type.Union([
    Type.Literal('new'),
    Type.Literal('moved'),
    Type.Literal('groups'),
    Type.Literal('removed'),
    Type.Literal('unchanged'),
  ]),
  organisation: Type.Object({ before: nullable(Type.String()), after: nullable(Type.String()) }),
  groupsAdded: Type.Array(Type.String()),
  groupsRemoved: Type.Array(Type.String()),
});
export type ImportChange = Static<typeof ImportChange>;

/** A row the import refuses, and why. */
export const ImportRefusal = Type.Object({
  line: Type.Integer(),
  email: nullable(Type.String()),
  reason: Type.String(),
});
export type ImportRefusal = Static<typeof ImportRefusal>;

/** The preview of an import, or what it did. */
export const ImportReport = Type.Object({
  /** Whether the rows were written (all of them); false for a preview or a refused file. */
  applied: Type.Boolean(),
  rows: Type.Integer(),
  counts: Type.Object({
    new: Type.Integer(),
    moved: Type.Integer(),
    groups: Type.Integer(),
    removed: Type.Integer(),
    unchanged: Type.Integer(),
    refused: Type.Integer(),
  }),
  changes: Type.Array(ImportChange),
  refused: Type.Array(ImportRefusal),
});
export type ImportReport = Static<typeof ImportReport>;
