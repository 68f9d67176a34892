import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { groupsOfAccount, unitsOfGroups } from '@portal/access';

import type { Site } from '../site.js';
import { insertSearchEvents, saveFeedback, type SearchEvent } from './activity.js';
import { insertAuditEvents, type AuditEvent } from './audit.js';
import type { Database } from './database.js';
import { addPageViews, VIEW_INTERVAL_MS, type PageViewRow } from './page-views.js';

/** The demo readers `npm start` seeds in the emulator (emulator/demo-readers.json). */
interface DemoReader {
  uid: string;
  email: string;
  emailVerified?: boolean;
  disabled?: boolean;
  groups?: string[];
}

/** A small seeded random source, so the demo activity is the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEARCHES: [query: string, results: number][] = [
  ['widevine tizen', 3],
  ['drm licence renewal', 0],
  ['chromecast sender', 0],
  ['useFocusable', 6],
  ['apple tv remote swipe', 0],
  ['ad break markers', 2],
  ['hdr10 webos', 0],
  ['subtitle styling', 4],
  ['server side ad insertion', 0],
  ['brand config', 5],
  ['low latency hls', 0],
  ['mux data', 3],
  ['focus trap modal', 0],
  ['release checklist', 2],
];

const COMMENTS: [helpful: boolean, comment: string | null][] = [
  [false, 'The brand config example does not say which fields are required.'],
  [true, 'The DRM setup steps worked first time on a 2021 Tizen set.'],
  [false, 'Missing how to test ad breaks without the ad server.'],
  [true, null],
  [true, 'Clear explanation of focus boundaries.'],
  [false, null],
];

/**
 * Thirty days of made-up reading, searching and rating by the demo readers, so the
 * insights are not empty on first start. Every row is marked `demo`, the admin pages say
 * so, and the server refuses DEMO_DATA in production. Seeded once: a restart adds nothing.
 */
export async function seedDemoActivity(
  db: Database,
  site: Site,
  log: { info(object: Record<string, unknown>, message: string): void },
  readersFile = resolve('emulator', 'demo-readers.json'),
): Promise<void> {
  const [seeded] = await db.query<{ any: boolean }>('select exists (select 1 from audit_events where demo) as any');
  if (seeded?.any) return;
  const readers = (JSON.parse(readFileSync(readersFile, 'utf8')) as { readers: DemoReader[] }).readers
    .filter((reader) => !reader.disabled)
    .map((reader) => ({
      ...reader,
      groups: groupsOfAccount({
        email: reader.email,
        emailVerified: reader.emailVerified ?? false,
        claims: reader.groups ? { groups: reader.groups } : null,
      }),
    }))
    .filter((reader) => reader.groups.length > 0)
    .map((reader) => ({ ...reader, units: unitsOfGroups(reader.groups) }));
  const pages = site.pages.filter((page) => page.access === 'private' && !page.url.startsWith('/admin'));
  // Readers mostly open package landing pages: those are the favourites, in a shuffled order.
  const landings = pages.filter((page) => page.url.startsWith('/docs/') && page.url.endsWith('/'));
  const next = random(20261122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const now = Date.now();
  const events: AuditEvent[] = [];
  const searches: SearchEvent[] = [];
  const pageViews: PageViewRow[] = [];
  for (let day = 29; day >= 0; day--) {
    for (const reader of readers) {
      const readable = pages.filter((page) => page.units.some((unit) => reader.units.includes(unit)));
      if (readable.length === 0) continue;
      // Most reading goes to a few pages; the rest is spread thin, and some pages stay unread.
      const favourites = landings
        .filter((page) => page.units.some((unit) => reader.units.includes(unit)))
        .filter((_, index) => (index * 7 + reader.uid.length) % 3 === 0);
      if (favourites.length === 0) favourites.push(...readable.slice(0, 3));
      const views = 1 + Math.floor(next() * 6);
      const dayStart = now - day * 86_400_000;
      events.push({
        kind: 'session.started',
        at: new Date(dayStart - 3_600_000),
        actorUid: reader.uid,
        actorEmail: reader.email,
        groups: reader.groups,
        demo: true,
      });
      for (let view = 0; view < views; view++) {
        const page = next() < 0.7 ? pick(favourites) : pick(readable);
        const at = dayStart - Math.floor(next() * 3_000_000);
        pageViews.push({
          period: at - (at % VIEW_INTERVAL_MS),
          uid: reader.uid,
          email: reader.email,
          groups: reader.groups,
          path: page.url,
          via: 'page',
          clientIp: '',
          firstAt: at,
          lastAt: at,
          count: 1,
          demo: true,
        });
      }
      if (next() < 0.5) {
        const [query, results] = pick(SEARCHES);
        searches.push({
          at: new Date(dayStart - Math.floor(next() * 3_000_000)),
          uid: reader.uid,
          groups: reader.groups,
          query,
          results,
          demo: true,
        });
      }
    }
  }
  events.push({
    kind: 'session.refused',
    at: new Date(now - 2 * 86_400_000),
    actorEmail: 'visitor@streaming-startup.example',
    detail: { code: 'no-access' },
    demo: true,
  });
  for (let start = 0; start < events.length; start += 500)
    await insertAuditEvents(db, events.slice(start, start + 500));
  // Views of one page by one reader in one hour are one row (page-views.ts).
  const rows = new Map<string, PageViewRow>();
  for (const view of pageViews) {
    const key = `${view.period} ${view.uid} ${view.path}`;
    const row = rows.get(key);
    if (!row) rows.set(key, view);
    else
      Object.assign(row, {
        count: row.count + 1,
        firstAt: Math.min(row.firstAt, view.firstAt),
        lastAt: Math.max(row.lastAt, view.lastAt),
      });
  }
  await addPageViews(db, [...rows.values()]);
  await insertSearchEvents(db, searches);
  for (const [index, [helpful, comment]] of COMMENTS.entries()) {
    const reader = readers[index % readers.length];
    const readable = landings.filter((page) => page.units.some((unit) => reader?.units.includes(unit)));
    if (!reader || readable.length === 0) continue;
    await saveFeedback(db, {
      uid: reader.uid,
      path: (readable[(index * 5) % readable.length] ?? pick(readable)).url,
      groups: reader.groups,
      helpful,
      comment,
      demo: true,
      at: new Date(now - index * 86_400_000),
    });
  }
  log.info(
    { events: events.length, pageViews: pageViews.length, searches: searches.length },
    'demo activity seeded (DEMO_DATA)',
  );
}
