/**
 * What an audit event did, in words an administrator reads at a glance ("Disabled
 * dev@partner.example", "Licence of Northwind: added player-adapter-shaka; ends 2027-01-31"):
 * one sentence per kind of event the gate records (server/src/db/audit.ts), from its
 * detail's before and after. No React; the audit panel shows what this returns.
 */
import { possessive } from '@portal/contract/names';
import type { AccessGroupInfo, AuditRow, LicenceInfo, OrganisationInfo } from '@portal/contract';

/** Names of the kinds of event, for the trail's "What" column and its filter. */
export const KIND_LABELS: Record<string, string> = {
  'session.started': 'Signed in',
  'session.refused': 'Sign-in refused',
  'session.logout': 'Signed out',
  'session.ended': 'Session ended',
  'page.view': 'Page view',
  'admin.invite': 'Invited',
  'admin.groups': 'Groups changed',
  'admin.disable': 'Disabled',
  'admin.enable': 'Enabled',
  'admin.remove': 'Removed',
  'admin.withdraw-invitation': 'Invitation withdrawn',
  'admin.organisation': 'Organisation changed',
  'admin.licence': 'Licence changed',
  'admin.access-group': 'Access group changed',
  'admin.membership': 'Organisation or groups of a reader',
  'admin.grant': 'Personal grant revoked',
  'admin.import': 'Readers imported',
  'admin.site-release': 'Site release served',
  'access.requested': 'Access asked for',
  'admin.access-request': 'Access request answered',
  'invitation.accepted': 'Invitation taken up',
  'token.created': 'Token created',
  'token.revoked': 'Token revoked',
  'token.used': 'Token used',
  'oauth.authorised': 'App allowed',
  'oauth.revoked': 'App revoked',
  'feed-token.created': 'Feed token made',
  'feed-token.revoked': 'Feed token revoked',
  'whats-new.settings': 'What’s new settings',
  'reading.cleared': 'Reading cleared',
  'digest.unsubscribed': 'Digest stopped',
  'admin.organisation-sign-in': 'Sign-in or SCIM groups of an organisation',
  'admin.scim-token': 'SCIM token made or revoked',
  'scim.user': 'Reader provisioned by SCIM',
  'scim.group': 'Group membership by SCIM',
};

type Event = Pick<AuditRow, 'kind' | 'subjectEmail' | 'subjectUid' | 'detail'>;
type Detail = Record<string, unknown>;

const isObject = (value: unknown): value is Detail =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const list = (values: readonly string[]): string => values.join(', ');
/** An ISO time's day (`2027-01-31`), as licences end at the end of a day. */
const day = (iso: string | null | undefined): string | null => (iso ? iso.slice(0, 10) : null);

/** "added a, b; removed c", or null when the two lists hold the same. */
function difference(before: readonly string[], after: readonly string[]): string | null {
  const added = after.filter((item) => !before.includes(item));
  const removed = before.filter((item) => !after.includes(item));
  const parts = [
    ...(added.length > 0 ? [`added ${list(added)}`] : []),
    ...(removed.length > 0 ? [`removed ${list(removed)}`] : []),
  ];
  return parts.length > 0 ? parts.join('; ') : null;
}

const groupsOf = (state: unknown): string[] => (isObject(state) ? strings(state.groups) : []);
const quoted = (name: unknown): string => `“${text(name) ?? 'unnamed'}”`;

function licenceWords(detail: Detail): string {
  const before = isObject(detail.before) ? (detail.before as unknown as OrganisationInfo) : null;
  const after = isObject(detail.after) ? (detail.after as unknown as OrganisationInfo) : null;
  const name = after?.name ?? before?.name ?? text(detail.organisation) ?? 'an organisation';
  const id = text(detail.licence);
  const find = (organisation: OrganisationInfo | null): LicenceInfo | undefined =>
    organisation?.licences?.find((licence) => licence.id === id);
  const was = find(before);
  const now = find(after);
  if (detail.action === 'withdrawn' || (was && !now))
    return `Licence of ${name} withdrawn${was && was.units.length > 0 ? `: ${list(was.units)}` : ''}`;
  const parts = [difference(was?.units ?? [], now?.units ?? [])];
  const end = day(now?.endsAt);
  const wasEnd = day(was?.endsAt);
  if (!was || end !== wasEnd)
    parts.push(
      `${end ? `ends ${end}` : 'no end date'}${was ? ` (was ${wasEnd ? `until ${wasEnd}` : 'without an end'})` : ''}`,
    );
  const changes = parts.filter((part): part is string => part !== null);
  return `Licence of ${name}: ${changes.length > 0 ? changes.join('; ') : 'no change'}`;
}

function organisationWords(detail: Detail): string {
  const before = isObject(detail.before) ? (detail.before as unknown as OrganisationInfo) : null;
  const after = isObject(detail.after) ? (detail.after as unknown as OrganisationInfo) : null;
  const name = after?.name ?? before?.name ?? text(detail.organisation) ?? 'an organisation';
  if (!after) return `Removed the organisation ${name}`;
  if (!before)
    return `Created the organisation ${name}${after.domains.length > 0 ? ` (domains ${list(after.domains)})` : ''}`;
  const parts: string[] = [];
  if (before.name !== after.name) parts.push(`renamed from ${before.name}`);
  const domains = difference(before.domains, after.domains);
  if (domains) parts.push(`domains ${domains}`);
  if (before.contact !== after.contact)
    parts.push(`contact ${after.contact ?? 'none'} (was ${before.contact ?? 'none'})`);
  return `Organisation ${name}: ${parts.length > 0 ? parts.join('; ') : 'no change'}`;
}

function accessGroupWords(detail: Detail): string {
  const before = isObject(detail.before) ? (detail.before as unknown as AccessGroupInfo) : null;
  const after = isObject(detail.after) ? (detail.after as unknown as AccessGroupInfo) : null;
  const name = text(detail.group) ?? after?.name ?? before?.name ?? 'a group';
  if (!after) return `Removed the group ${name}`;
  if (!before) return `Created the group ${name}: ${after.units.length > 0 ? list(after.units) : 'no units'}`;
  const parts = [difference(before.units, after.units)];
  if (before.label !== after.label) parts.push(`label “${after.label}”`);
  const changes = parts.filter((part): part is string => part !== null);
  return `Group ${name}: ${changes.length > 0 ? changes.join('; ') : 'no change'}`;
}

function membershipWords(detail: Detail, who: string): string {
  const before = isObject(detail.before) ? detail.before : {};
  const after = isObject(detail.after) ? detail.after : {};
  const parts: string[] = [];
  const was = text(before.organisation);
  const now = text(after.organisation);
  if (was !== now) parts.push(`organisation ${now ?? 'by e-mail domain'} (was ${was ?? 'by e-mail domain'})`);
  const groups = difference(groupsOf(before), groupsOf(after));
  if (groups) parts.push(`groups ${groups}`);
  return `${who}: ${parts.length > 0 ? parts.join('; ') : 'no change'}`;
}

/** An organisation's sign-in as an audit event holds it (`OrganisationSignIn`), or null. */
function signInOf(state: unknown): { provider: string; name: string; required: boolean } | null {
  if (!isObject(state)) return null;
  const provider = text(state.provider);
  if (!provider) return null;
  return { provider, name: text(state.name) ?? provider, required: state.required === true };
}

/** An administrator's change of an organisation's own sign-in (set or removed) or of the groups its SCIM client may use. */
function organisationSignInWords(detail: Detail): string {
  const organisation = text(detail.organisation) ?? 'an organisation';
  if (detail.action === 'groups')
    return `SCIM groups of ${organisation}: ${difference(groupsOf(detail.before), groupsOf(detail.after)) ?? 'no change'}`;
  const before = signInOf(detail.before);
  const after = signInOf(detail.after);
  if (detail.action === 'removed' || !after)
    return `Removed the single sign-on of ${organisation}${before ? ` (“${before.name}”, ${before.provider})` : ''}: back to passwords`;
  if (!before)
    return `Single sign-on for ${organisation}: “${after.name}” (${after.provider}), ${after.required ? 'required' : 'optional'}`;
  const parts: string[] = [];
  if (before.provider !== after.provider) parts.push(`provider ${after.provider} (was ${before.provider})`);
  if (before.name !== after.name) parts.push(`name “${after.name}” (was “${before.name}”)`);
  if (before.required !== after.required) parts.push(after.required ? 'now required' : 'no longer required');
  return `Single sign-on of ${organisation}: ${parts.length > 0 ? parts.join('; ') : 'no change'}`;
}

const counted = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** What deactivating or deleting a reader ended: "2 tokens, 1 connected app", or null when it ended nothing. */
function endedWords(ended: unknown): string | null {
  if (!isObject(ended)) return null;
  const counts: [value: unknown, one: string][] = [
    [ended.tokens, 'token'],
    [ended.feedTokens, 'feed token'],
    [ended.oauthGrants, 'connected app'],
    [ended.readerGrants, 'own grant'],
  ];
  const parts = counts.flatMap(([value, one]) => (typeof value === 'number' && value > 0 ? [counted(value, one)] : []));
  return parts.length > 0 ? `ended ${list(parts)}` : null;
}

/** What changed in what SCIM keeps of a reader: their user name, e-mail and external id. */
function scimUserChanges(before: unknown, after: unknown): string[] {
  if (!isObject(before) || !isObject(after)) return [];
  const fields: [key: string, words: string][] = [
    ['userName', 'user name'],
    ['email', 'e-mail'],
    ['externalId', 'external id'],
  ];
  return fields
    .filter(([key]) => text(before[key]) !== text(after[key]))
    .map(([key, words]) => `${words} ${text(after[key]) ?? 'none'} (was ${text(before[key]) ?? 'none'})`);
}

/** " (SCIM client “Okta”)": the token an organisation's directory called with, by its name. */
function scimClient(detail: Detail): string {
  const client = isObject(detail.client) ? text(detail.client.name) : null;
  return client ? ` (SCIM client “${client}”)` : '';
}

const SCIM_USER_VERBS: Record<string, string> = {
  created: 'Created',
  adopted: 'Took over the existing account',
  changed: 'Changed',
  deactivated: 'Deactivated',
  reactivated: 'Reactivated',
  deleted: 'Deleted',
};

/** A reader made, changed, deactivated or deleted by an organisation's SCIM client (the event's actor is `scim:<organisation>`). */
function scimUserWords(detail: Detail, who: string): string {
  const verb = SCIM_USER_VERBS[text(detail.action) ?? ''] ?? 'Provisioned';
  const parts = [...scimUserChanges(detail.before, detail.after), endedWords(detail.ended)].filter(
    (part): part is string => part !== null,
  );
  // A change of a name only (given, family or display name) lists nothing: the event keeps none of them.
  return `${verb} ${who}${scimClient(detail)}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`;
}

/** What an event did, in one sentence (or a few words for the frequent ones). */
/**
 * Who did it, as the trail's "Who" column says it: the actor's e-mail, or for a change an
 * organisation's SCIM client made (`scim:<organisation>`), the client named for what it is.
 */
export function actorOf(event: { actorEmail: string | null; actorUid: string | null }): string {
  const scim = /^scim:(.+)$/.exec(event.actorEmail ?? '');
  if (scim) return `SCIM client of ${scim[1]}`;
  return event.actorEmail ?? event.actorUid ?? '–';
}

export function describeEvent(event: Event): string {
  const { kind } = event;
  const detail: Detail = isObject(event.detail) ? event.detail : {};
  const who = event.subjectEmail ?? text(detail.email) ?? event.subjectUid ?? 'a reader';
  const code = text(detail.code)?.replace(/-/g, ' ');
  switch (kind) {
    // A sign-in or a sign-out changes nothing: its kind says it all.
    case 'session.started':
    case 'session.logout':
      return '';
    case 'session.refused':
      return code ? `Sign-in refused: ${code}` : 'Sign-in refused';
    case 'session.ended':
      return code ? `Signed out by the portal: ${code}` : 'Signed out by the portal';
    case 'page.view': {
      if (typeof detail.views !== 'number') return 'Read the page';
      // A row is a reader's views of a page in an hour (server/src/db/page-views.ts).
      const via = detail.via === 'mcp' ? ', by MCP' : detail.via === 'token' ? ', with a token' : '';
      return `${detail.views} ${detail.views === 1 ? 'view' : 'views'} in the hour${via}`;
    }
    case 'admin.invite': {
      const groups = groupsOf(detail.after);
      const into = groups.length > 0 ? ` into ${list(groups)}` : '';
      return detail.method === 'provider'
        ? `Invited ${who} to sign in with GitHub${into}`
        : `Invited ${who} with a password link${into}`;
    }
    case 'admin.groups':
      return `Groups of ${who}: ${difference(groupsOf(detail.before), groupsOf(detail.after)) ?? 'no change'}`;
    case 'admin.disable':
      return `Disabled ${who}`;
    case 'admin.enable':
      return `Enabled ${who}`;
    case 'admin.remove': {
      const groups = groupsOf(detail.before);
      return `Removed ${who}${groups.length > 0 ? ` (was in ${list(groups)})` : ''}`;
    }
    case 'admin.withdraw-invitation':
      return `Withdrew the invitation of ${who}`;
    case 'admin.organisation':
      return organisationWords(detail);
    case 'admin.licence':
      return licenceWords(detail);
    case 'admin.access-group':
      return accessGroupWords(detail);
    case 'admin.membership':
      return membershipWords(detail, who);
    case 'admin.grant': {
      const units = Array.isArray(detail.units) ? detail.units.filter((unit) => typeof unit === 'string') : [];
      return `Revoked ${possessive(who)} own grant${units.length > 0 ? ` of ${list(units)}` : ''}`;
    }
    case 'admin.import': {
      const counts = isObject(detail.counts) ? detail.counts : {};
      const changed = Object.entries(counts)
        .filter(([name, count]) => name !== 'unchanged' && typeof count === 'number' && count > 0)
        .map(([name, count]) => `${String(count)} ${name}`);
      const rows = typeof detail.rows === 'number' ? `${detail.rows} rows` : 'a file';
      return `Imported ${rows} of readers${changed.length > 0 ? `: ${list(changed)}` : ', nothing changed'}`;
    }
    case 'admin.site-release': {
      const release = typeof detail.release === 'number' ? `release ${detail.release}` : 'a release';
      const before = typeof detail.previous === 'number' ? ` in place of release ${detail.previous}` : '';
      return `Served the site's ${release}${before} on every replica`;
    }
    case 'access.requested': {
      const reason = text(detail.reason);
      return `Asked for ${text(detail.unit) ?? 'a unit'}${reason ? `: “${reason}”` : ''}`;
    }
    case 'admin.access-request': {
      const unit = text(detail.unit) ?? 'a unit';
      if (detail.action === 'declined')
        return `Declined ${possessive(who)} request for ${unit}: ${text(detail.reason) ?? ''}`;
      const whom = detail.for === 'organisation' ? `the organisation ${text(detail.organisation) ?? ''}` : who;
      const ends = text(detail.endsOn);
      return `Gave ${unit} to ${whom}${ends ? ` until ${ends}` : ''}, as asked`;
    }
    case 'invitation.accepted': {
      const groups = strings(detail.groups);
      return `Took up an invitation${groups.length > 0 ? ` into ${list(groups)}` : ''}`;
    }
    case 'token.created': {
      const ends = day(text(detail.expiresAt));
      return `Made the token ${quoted(detail.name)}${ends ? `, until ${ends}` : ''}`;
    }
    case 'token.revoked':
      return `Revoked the token ${quoted(detail.name)}${detail.byAdministrator === true && event.subjectEmail ? ` of ${event.subjectEmail}` : ''}`;
    case 'token.used':
      return `Used the token ${quoted(detail.name)} (first use today)`;
    case 'oauth.authorised':
      return `Allowed the app ${quoted(detail.name)} to read as them`;
    case 'oauth.revoked':
      return `Revoked the app ${quoted(detail.name)}${detail.byAdministrator === true ? ' (by an administrator)' : ''}`;
    case 'feed-token.created':
      return `Made a feed token for ${detail.feed === 'whats-new' ? 'their “What’s new” feed' : `the feed of ${String(detail.feed).replace(/^package:/, '')}`}`;
    case 'feed-token.revoked':
      return 'Revoked a feed token';
    case 'reading.cleared':
      return `Cleared what the portal kept of their reading (${Number(detail.rows ?? 0)} rows)`;
    case 'digest.unsubscribed':
      return 'Stopped the “What’s new” digest from its mail';
    case 'admin.organisation-sign-in':
      return organisationSignInWords(detail);
    case 'admin.scim-token': {
      const organisation = text(detail.organisation) ?? 'an organisation';
      const hint = text(detail.hint);
      const token = `the SCIM token ${quoted(detail.name)}${hint ? ` (…${hint})` : ''}`;
      return detail.action === 'revoked' ? `Revoked ${token} of ${organisation}` : `Made ${token} for ${organisation}`;
    }
    case 'scim.user':
      return scimUserWords(detail, who);
    case 'scim.group': {
      const group = text(detail.group) ?? 'a group';
      return detail.action === 'removed'
        ? `Took ${who} out of the group ${group}${scimClient(detail)}`
        : `Put ${who} in the group ${group}${scimClient(detail)}`;
    }
    default:
      return KIND_LABELS[kind] ?? kind;
  }
}
