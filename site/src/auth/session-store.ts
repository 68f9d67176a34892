/**
 * The reader's session as the browser knows it, kept outside React so that the client
 * route guard (a client module, not a component) can read it synchronously. The gate
 * server owns the session (an HttpOnly cookie); this only mirrors what `GET /api/session`
 * said. No Firebase code here: this module is in every page's bundle.
 */
import {
  GROUP_NAME_PATTERN,
  GROUPS_HINT_COOKIE,
  MAX_GROUPS,
  MAX_UNITS,
  UNIT_NAME_PATTERN,
} from '@portal/contract/names';

export type SessionState =
  | { status: 'loading' }
  /**
   * `groups`: the reader groups the server named (sorted, no repeats; empty when it named
   * none); `units`: the access units they hold, which decide what the site shows and searches.
   */
  | {
      status: 'signedIn';
      email: string;
      groups: readonly string[];
      units: readonly string[];
      /** What the reader stops reading soon because their organisation's licence ends (the banner). */
      licenceEnding?: LicenceEnding | null;
    }
  /**
   * `confirmed` is true when the server answered 401. It is false when the answer could
   * not be read (network error, a server without the session API, a 5xx): the navbar
   * still offers Login, but the route guard does not send the reader away on a guess.
   */
  | { status: 'signedOut'; confirmed: boolean };

/** The packages a reader stops reading soon, each with its end, because `organisation`'s licence ends. */
export interface LicenceEnding {
  organisation: string;
  units: readonly { unit: string; unitLabel: string; endsAt: string }[];
}

export const SESSION_PATH = '/api/session';
export const LOGOUT_PATH = '/api/logout';

/** The cosmetic cookie the gate server sets beside the session (the reader's groups joined by `.`). */
export { GROUPS_HINT_COOKIE };

/** What a page knows before asking the server: its cookies, and whether the gate served it as a private page. */
export interface PageHint {
  /** `document.cookie`: the session cookie is HttpOnly, but its `portal_groups` companion is readable. */
  cookie: string;
  /** True for a page of the app that is not public: the gate sent its HTML only with a session. */
  privatePage: boolean;
}

/**
 * The session as far as the page can tell without asking: signed out (for certain) on a
 * public page or the not-found page when there is no `portal_groups` cookie, since the
 * gate sets that cookie whenever it starts a session and clears it whenever it ends one.
 * Null when the server must be asked: the hint is there, or the gate served this page
 * privately (it did so for a session, whatever the cookies say). Not asking spares a
 * signed-out visitor's console the 401 that Chromium logs for every refused request.
 */
export function sessionWithoutAsking({ cookie, privatePage }: PageHint): SessionState | null {
  if (privatePage) return null;
  const hint = cookie.split(';').some((pair) => pair.trim().startsWith(`${GROUPS_HINT_COOKIE}=`));
  return hint ? null : { status: 'signedOut', confirmed: true };
}

// The server renders every page before anyone is known, so the first client render must
// say "loading" too, or hydration would not match.
const loadingState: SessionState = { status: 'loading' };

let state: SessionState = loadingState;
let pending: Promise<SessionState> | null = null;
const listeners = new Set<() => void>();

export function getSessionState(): SessionState {
  return state;
}

export function getServerSessionState(): SessionState {
  return loadingState;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function setSessionState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

/**
 * The groups in a session answer: a list of well-formed group names, sorted. Anything
 * else (missing, not a list, a name that is not a group name) counts as no groups: the
 * reader then sees only public items, and the server still decides what they may open.
 */
export function groupsFromBody(groups: unknown): string[] {
  if (!Array.isArray(groups) || groups.length > MAX_GROUPS) return [];
  if (!groups.every((name): name is string => typeof name === 'string' && GROUP_NAME_PATTERN.test(name))) return [];
  return [...new Set(groups)].sort();
}

/** The units in a session answer, checked as `groupsFromBody` checks groups (in the server's order). */
export function unitsFromBody(units: unknown): string[] {
  if (!Array.isArray(units) || units.length > MAX_UNITS) return [];
  if (!units.every((name): name is string => typeof name === 'string' && UNIT_NAME_PATTERN.test(name))) return [];
  return [...new Set(units)];
}

/** A session answer's `licenceEnding` when well formed; anything else counts as none. */
export function licenceEndingFromBody(ending: unknown): LicenceEnding | null {
  if (!ending || typeof ending !== 'object' || !('organisation' in ending) || !('units' in ending)) return null;
  const { organisation, units } = ending;
  if (typeof organisation !== 'string' || !Array.isArray(units) || units.length === 0) return null;
  const wellFormed = units.every(
    (item: unknown) =>
      item !== null &&
      typeof item === 'object' &&
      'unit' in item &&
      typeof item.unit === 'string' &&
      'unitLabel' in item &&
      typeof item.unitLabel === 'string' &&
      'endsAt' in item &&
      typeof item.endsAt === 'string' &&
      !Number.isNaN(Date.parse(item.endsAt)),
  );
  return wellFormed ? { organisation, units: units as LicenceEnding['units'] } : null;
}

/** Reads the answer of `GET /api/session`; anything unexpected counts as unknown. */
export async function sessionStateFromResponse(response: Response): Promise<SessionState> {
  if (response.status === 401) return { status: 'signedOut', confirmed: true };
  if (response.status !== 200) return { status: 'signedOut', confirmed: false };
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'email' in body && typeof body.email === 'string' && body.email) {
      return {
        status: 'signedIn',
        email: body.email,
        groups: groupsFromBody('groups' in body ? body.groups : null),
        units: unitsFromBody('units' in body ? body.units : null),
        licenceEnding: licenceEndingFromBody('licenceEnding' in body ? body.licenceEnding : null),
      };
    }
  } catch {
    // Not JSON, e.g. a development server that answers every path with the app's HTML.
  }
  return { status: 'signedOut', confirmed: false };
}

/**
 * Learns who the reader is, once per page load (repeat calls share the answer): from the
 * page's hint when that is enough (see sessionWithoutAsking), else by asking the server.
 * Never rejects: a failure leaves the reader signed out as far as the UI is concerned.
 */
export function loadSession(fetchImpl: typeof fetch = fetch, hint: PageHint | null = null): Promise<SessionState> {
  const known = hint === null ? null : sessionWithoutAsking(hint);
  if (known !== null && pending === null) {
    setSessionState(known);
    pending = Promise.resolve(known);
  }
  pending ??= fetchImpl(SESSION_PATH, {
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { Accept: 'application/json' },
  })
    .then(sessionStateFromResponse, (): SessionState => ({ status: 'signedOut', confirmed: false }))
    .then((next) => {
      setSessionState(next);
      return next;
    });
  return pending;
}

/**
 * Ends the session on the server, then reloads the home page in full so that nothing a
 * signed-in reader saw stays in this page's memory. Rejects when the server did not
 * confirm, so the caller can say so instead of pretending the reader is signed out.
 */
export async function logout(fetchImpl: typeof fetch = fetch): Promise<void> {
  const response = await fetchImpl(LOGOUT_PATH, { method: 'POST', credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) throw new Error(`Logout failed with HTTP ${response.status}`);
  window.location.assign('/');
}

/** Forgets the loaded state; for tests only, a page never needs it. */
export function resetSessionStoreForTests(): void {
  state = loadingState;
  pending = null;
  listeners.clear();
}
