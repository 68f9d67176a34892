/**
 * Asking for access: why a signed-in reader cannot read a page, their requests for a unit,
 * and the administrators' queue of them with its answers.
 */
import Type, { type Static } from 'typebox';

import { Day, isoTime, nullable } from './shared.js';

/** What a reader or an administrator writes: a sentence or two. */
export const MAX_REQUEST_REASON = 500;

/** A request as its reader sees it. */
export const AccessRequestInfo = Type.Object({
  id: Type.String(),
  unit: Type.String(),
  unitLabel: Type.String(),
  path: Type.String(),
  reason: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('declined')]),
  createdAt: isoTime,
  answeredAt: nullable(isoTime),
  /** Approved for the reader alone or for their whole organisation. */
  grantedTo: nullable(Type.Union([Type.Literal('reader'), Type.Literal('organisation')])),
  /** Until when an approval reads (null: no end). */
  endsAt: nullable(isoTime),
  /** A decline's reason. */
  answer: nullable(Type.String()),
});
export type AccessRequestInfo = Static<typeof AccessRequestInfo>;

/** `GET /api/access/refusal?path=`: the query. */
export const RefusalQuery = Type.Object(
  { path: Type.String({ minLength: 1, maxLength: 2048, pattern: '^/' }) },
  { additionalProperties: false },
);
export type RefusalQuery = Static<typeof RefusalQuery>;

/** Why this reader cannot read a page, and what they can do. */
export const RefusalAnswer = Type.Object({
  /** The page's unit and its label (never a page's title). */
  unit: Type.String(),
  unitLabel: Type.String(),
  /**
   * `readable`: they can read it now (granted since); `not-licensed`: none of their
   * organisation's licences or their grants gives it; `ended`: what gave it ended on
   * `endedAt`; `internal`: the company's own pages, for its developers only.
   */
  reason: Type.Union([
    Type.Literal('readable'),
    Type.Literal('not-licensed'),
    Type.Literal('ended'),
    Type.Literal('internal'),
  ]),
  endedAt: nullable(isoTime),
  /** The reader's organisation's name, if they have one. */
  organisation: nullable(Type.String()),
  /** Whether they can ask for it here (a partner product, and no request of theirs is open for it). */
  canAsk: Type.Boolean(),
  /** Their latest request for this unit. */
  request: nullable(AccessRequestInfo),
});
export type RefusalAnswer = Static<typeof RefusalAnswer>;

export const AccessRequestBody = Type.Object(
  {
    /** The page they ask from: its unit is what they ask for. */
    path: Type.String({ minLength: 1, maxLength: 2048, pattern: '^/' }),
    reason: Type.String({ maxLength: MAX_REQUEST_REASON }),
  },
  { additionalProperties: false },
);
export type AccessRequestBody = Static<typeof AccessRequestBody>;

export const AccessRequestList = Type.Object({ requests: Type.Array(AccessRequestInfo) });
export type AccessRequestList = Static<typeof AccessRequestList>;

/** A request in the administrators' queue: whose, and from which organisation. */
export const QueuedAccessRequest = Type.Intersect([
  AccessRequestInfo,
  Type.Object({
    email: Type.String(),
    organisation: nullable(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        /** What its live licences give now, unit by unit with the latest end (null: no end). */
        licensed: Type.Array(Type.Object({ unit: Type.String(), unitLabel: Type.String(), endsAt: nullable(isoTime) })),
      }),
    ),
    answeredBy: nullable(Type.String()),
  }),
]);
export type QueuedAccessRequest = Static<typeof QueuedAccessRequest>;

export const AccessRequestQueue = Type.Object({ requests: Type.Array(QueuedAccessRequest) });
export type AccessRequestQueue = Static<typeof AccessRequestQueue>;

export const AccessRequestApproval = Type.Object(
  {
    /** The reader alone, or every reader of their organisation (a licence). */
    for: Type.Union([Type.Literal('reader'), Type.Literal('organisation')]),
    /** The last day it reads; absent or null: no end. */
    endsOn: Type.Optional(nullable(Day)),
  },
  { additionalProperties: false },
);
export type AccessRequestApproval = Static<typeof AccessRequestApproval>;

export const AccessRequestDecline = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: MAX_REQUEST_REASON }) },
  { additionalProperties: false },
);
export type AccessRequestDecline = Static<typeof AccessRequestDecline>;

/** One reason a reader reads a unit: a group, their organisation's licence, or a grant of their own. */
export const AccessSource = Type.Union([
  Type.Object({ kind: Type.Literal('group'), group: Type.String() }),
  Type.Object({ kind: Type.Literal('licence'), organisation: Type.String(), endsAt: nullable(isoTime) }),
  /** `id`: the grant's, for an administrator to revoke it (`DELETE /api/admin/grants/{id}`). */
  Type.Object({ kind: Type.Literal('grant'), endsAt: nullable(isoTime), id: Type.Optional(Type.String()) }),
]);
export type AccessSource = Static<typeof AccessSource>;

/** `GET /api/access`: what the signed-in reader reads, and where each part of it comes from. */
export const MyAccessAnswer = Type.Object({
  /** Their organisation (placed there, or by their verified e-mail's domain), if any. */
  organisation: nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  /** Each unit they read, in the policy's order (their account page aside), with every reason. */
  units: Type.Array(Type.Object({ unit: Type.String(), unitLabel: Type.String(), sources: Type.Array(AccessSource) })),
});
export type MyAccessAnswer = Static<typeof MyAccessAnswer>;
