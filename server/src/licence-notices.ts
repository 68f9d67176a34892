import { possessive } from '@portal/contract';
import { policy } from '@portal/access';

import type { SessionAnswer } from '@portal/contract';

import { unitLabel } from './access-requests.js';
import type { AccountAccess, Licences } from './auth/licences.js';
import type { Database } from './db/database.js';
import type { AccessData, Licence, Organisation } from './db/licences.js';
import type { Mail, Mailer } from './mail.js';
import { escapeHtml } from './pages.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A mail announcing that a licence ends: `ahead` (within the notice days) or `day` (it ends today, UTC). */
export interface LicenceNotice {
  licence: Licence & { endsAt: Date };
  organisation: Organisation;
  kind: 'ahead' | 'day';
}

/** A moment's day, UTC: `2026-12-13`. */
const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** A day as the site writes it: "14 December 2026". */
export const dayInWords = (date: Date): string =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The notices due at `now`: every licence that has not ended and ends today (`day`) or within
 * `days` days (`ahead`). Whether one was sent already is the database's to say (`sendDueNotices`).
 */
export function dueNotices(data: AccessData, now: number, days: number): LicenceNotice[] {
  const organisations = new Map(data.organisations.map((organisation) => [organisation.id, organisation]));
  const today = isoDay(new Date(now));
  const notices: LicenceNotice[] = [];
  for (const licence of data.licences) {
    const { endsAt } = licence;
    const organisation = organisations.get(licence.organisationId);
    if (endsAt === null || organisation === undefined || endsAt.getTime() <= now) continue;
    const kind = isoDay(endsAt) === today ? 'day' : endsAt.getTime() - now <= days * DAY_MS ? 'ahead' : null;
    if (kind) notices.push({ licence: { ...licence, endsAt }, organisation, kind });
  }
  return notices;
}

/** The mail of a notice, to one recipient: the organisation's contact or the administrators' team. */
export function noticeMail(notice: LicenceNotice, to: string, origin: string | null, now: number): Mail {
  const { organisation, licence, kind } = notice;
  const packages = licence.units.map(unitLabel);
  const day = dayInWords(licence.endsAt);
  // Calendar days, as people count them: a licence ending on the 13th ends in 10 days on the 3rd.
  const daysLeft = Math.max(
    1,
    Math.round((Date.parse(isoDay(licence.endsAt)) - Date.parse(isoDay(new Date(now)))) / DAY_MS),
  );
  const when = kind === 'day' ? 'today' : `on ${day}, in ${daysLeft} day${daysLeft === 1 ? '' : 's'}`;
  const ends = `${possessive(organisation.name)} licence ends ${when} (at the end of the day, UTC).`;
  const team = policy.requestAccess.email;
  const admin = origin && `${origin}/admin/organisations`;
  // What to do next, and where: renew it in the administration (the team), or write to the team (the contact).
  const next =
    to === team
      ? {
          text: `Renew or change it in the portal's administration, under Organisations${admin ? ':' : ''}`,
          address: admin,
          href: admin,
        }
      : {
          text: `After that, ${possessive(organisation.name)} developers can no longer read these packages' documentation. To renew, write to ${policy.requestAccess.label} at`,
          address: team,
          href: `mailto:${team}`,
        };
  const link = next.address && next.href ? ` <a href="${escapeHtml(next.href)}">${escapeHtml(next.address)}</a>` : '';
  return {
    to,
    subject: `${possessive(organisation.name)} licence of the Norigin Developer Docs ends ${kind === 'day' ? 'today' : `on ${day}`}`,
    text: `${ends} It covers: ${packages.join(', ')}.\n\n${next.text}${next.address ? ` ${next.address}` : ''}.\n`,
    html: `<p>${escapeHtml(ends)} It covers:</p><ul>${packages.map((name) => `<li>${escapeHtml(name)}</li>`).join('')}</ul><p>${escapeHtml(next.text)}${link}.</p>`,
  };
}

/**
 * Sends the notices due now, each once: the row a notice inserts is what lets it go, so
 * replicas checking at the same moment send it once between them. To the organisation's
 * contact, when it has one, and to the administrators' team address (the policy's).
 * Answers the notices that went out.
 */
export async function sendDueNotices(options: {
  db: Pick<Database, 'query'>;
  data: AccessData;
  mailer: Mailer;
  now: number;
  days: number;
  origin: string | null;
}): Promise<LicenceNotice[]> {
  const sent: LicenceNotice[] = [];
  for (const notice of dueNotices(options.data, options.now, options.days)) {
    const taken = await options.db.query(
      `insert into licence_notices (licence_id, ends_at, kind) values ($1, $2, $3)
       on conflict do nothing returning licence_id`,
      [notice.licence.id, notice.licence.endsAt, notice.kind],
    );
    if (taken.length === 0) continue;
    const recipients = new Set([notice.organisation.contact, policy.requestAccess.email].filter((to) => to !== null));
    for (const to of recipients) options.mailer.send(noticeMail(notice, to, options.origin, options.now));
    sent.push(notice);
  }
  return sent;
}

/**
 * What an account stops reading within `days` days because its organisation's licence ends:
 * each unit a live licence gives it and nothing lasting longer does (a group, a later licence
 * or grant), with the day it stops. Null when there is none (the session's banner).
 */
export function endingSoon(
  licences: Licences,
  account: AccountAccess,
  now: number,
  days: number,
): Exclude<SessionAnswer['licenceEnding'], undefined> {
  const { organisation, units } = licences.sourcesOf(account);
  if (organisation === null) return null;
  const ending = units.flatMap(({ unit, sources }) => {
    if (!sources.some((source) => source.kind === 'licence')) return [];
    const ends = sources.map((source) => (source.kind === 'group' ? null : source.endsAt));
    if (ends.some((end) => end === null)) return [];
    const last = Math.max(...ends.map((end) => (end as Date).getTime()));
    return last - now <= days * DAY_MS
      ? [{ unit, unitLabel: unitLabel(unit), endsAt: new Date(last).toISOString() }]
      : [];
  });
  return ending.length === 0 ? null : { organisation: organisation.name, units: ending };
}
