import type { Reader } from '../auth/identity.js';
import type { Database } from '../db/database.js';
import { digestReaders, digestSent, releaseDigest, takeDigest } from '../db/whats-new.js';
import type { Mail, Mailer } from '../mail.js';
import type { Site } from '../site.js';
import type { PackageNews, ReleaseNews } from './model.js';
import { releaseHtml, releaseMarkdown } from './render.js';
import { newsFor, releaseSeenTimes } from './service.js';

const WEEK_MS = 7 * 86_400_000;

export interface DigestDeps {
  db: Database;
  site: Site;
  mailer: Mailer;
  readerByUid(uid: string): Promise<Reader>;
  origin: string;
  unsubscribeUrl(uid: string): string;
  now: Date;
  log: { warn(object: Record<string, unknown>, message: string): void };
}

/** The mail of a digest: the releases as text and HTML, with RFC 8058's one-click unsubscribe. */
export function digestMail(
  reader: Pick<Reader, 'email'>,
  items: readonly { pkg: PackageNews; release: ReleaseNews }[],
  links: { origin: string; unsubscribe: string },
): Mail {
  const absolute = (path: string) => new URL(path, links.origin).href;
  const names = items.map(({ pkg, release }) => `${pkg.title} ${release.version}`);
  const subject =
    items.length === 1
      ? `New release: ${names[0]}`
      : `${items.length} new releases: ${names.slice(0, 3).join(', ')}${items.length > 3 ? ', …' : ''}`;
  const page = absolute('/account/whats-new');
  const text = [
    `What's new for you in the Norigin Developer Docs.`,
    ...items.map(({ pkg, release }) => releaseMarkdown(pkg, release, absolute)),
    `All that is new for you: ${page}`,
    `Stop these mails: ${links.unsubscribe}`,
  ].join('\n\n');
  const html = [
    `<p>What’s new for you in the Norigin Developer Docs.</p>`,
    ...items.map(
      ({ pkg, release }) =>
        `<h2>${escape(pkg.title)} ${escape(release.version)}</h2>${releaseHtml(pkg, release, absolute)}`,
    ),
    `<p><a href="${escape(page)}">All that is new for you</a> · <a href="${escape(links.unsubscribe)}">Stop these mails</a></p>`,
  ].join('');
  return {
    to: reader.email,
    subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${links.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Sends the digests due: to each reader with the digest on, one mail per round with the
 * releases of the packages they watch that the portal first served after their last digest
 * (each release taken once per reader, so no release is mailed to a reader twice), or once
 * a week with the week's. A mail the SMTP server did not take gives its releases back: the
 * next round sends them, once.
 */
export async function sendDigests(deps: DigestDeps): Promise<{ sent: number; failed: number }> {
  const seen = await releaseSeenTimes(deps.db);
  let sent = 0;
  let failed = 0;
  for (const choice of ['release', 'weekly'] as const) {
    for (const { uid, email, from } of await digestReaders(deps.db, choice)) {
      if (choice === 'weekly' && deps.now.getTime() - from.getTime() < WEEK_MS) continue;
      let reader: Reader;
      try {
        reader = await deps.readerByUid(uid);
      } catch {
        continue; // a reader who is gone or disabled gets no mail
      }
      const news = await newsFor({ site: deps.site, db: deps.db }, reader, {}, deps.now, new Date(0));
      const due = news.packages
        .filter((pkg) => pkg.watched)
        .flatMap((pkg) => pkg.releases.map((release) => ({ pkg, release, key: `${pkg.id}@${release.version}` })))
        .filter(({ key }) => (seen.get(key) ?? -Infinity) > from.getTime());
      if (due.length === 0) continue;
      const occasion = (key: string) => (choice === 'weekly' ? `week:${from.toISOString()}:${key}` : `release:${key}`);
      const taken = [];
      for (const item of due) if (await takeDigest(deps.db, uid, occasion(item.key))) taken.push(item);
      if (taken.length === 0) continue;
      try {
        await deps.mailer.deliver(
          digestMail({ email: reader.email || email }, taken, {
            origin: deps.origin,
            unsubscribe: deps.unsubscribeUrl(uid),
          }),
        );
        const to = new Date(Math.max(...taken.map(({ key }) => seen.get(key) ?? 0), from.getTime()));
        for (const item of taken)
          await digestSent(deps.db, uid, occasion(item.key), choice === 'weekly' ? deps.now : to);
        sent += 1;
      } catch (error) {
        failed += 1;
        for (const item of taken) await releaseDigest(deps.db, uid, occasion(item.key));
        deps.log.warn(
          { to: email, reason: error instanceof Error ? error.message : String(error) },
          'digest not sent; it is sent at the next round',
        );
      }
    }
  }
  return { sent, failed };
}
