/**
 * The classes on the root element that say who the reader is, for the access styles
 * (`accessStyles()` in packages/access): `portal-signed-in` plus one `portal-u-<unit>`
 * per unit they hold and one `portal-g-<group>` per group (the account page's first paint
 * names the groups by these), or `portal-signed-out`. With neither, nothing is hidden and nothing is locked
 * (only with a malformed hint cookie, until the answer). The head script of
 * src/plugins/access-marks.ts sets a first guess from the `portal_groups` hint cookie
 * (signed out without one); the session answer replaces it here.
 */
import type { SessionState } from './session-store';

export const SIGNED_IN_CLASS = 'portal-signed-in';
export const SIGNED_OUT_CLASS = 'portal-signed-out';
export const GROUP_CLASS_PREFIX = 'portal-g-';
export const UNIT_CLASS_PREFIX = 'portal-u-';

/** The subset of DOMTokenList this module uses (a fake one in tests). */
export interface ClassList {
  readonly length: number;
  item(index: number): string | null;
  add(...tokens: string[]): void;
  remove(...tokens: string[]): void;
  contains(token: string): boolean;
}

export function isReaderClass(name: string): boolean {
  return (
    name === SIGNED_IN_CLASS ||
    name === SIGNED_OUT_CLASS ||
    name.startsWith(GROUP_CLASS_PREFIX) ||
    name.startsWith(UNIT_CLASS_PREFIX)
  );
}

/**
 * The reader classes a session answer asks for, or null to leave the root as it is: while
 * the answer is awaited, and when it could not be read (then the hint cookie's guess stays).
 */
export function readerClassesFor(session: SessionState): string[] | null {
  if (session.status === 'signedIn')
    return [
      SIGNED_IN_CLASS,
      ...session.groups.map((group) => GROUP_CLASS_PREFIX + group),
      ...session.units.map((unit) => UNIT_CLASS_PREFIX + unit),
    ];
  if (session.status === 'signedOut' && session.confirmed) return [SIGNED_OUT_CLASS];
  return null;
}

/** The reader classes on `classList` now. */
export function currentReaderClasses(classList: ClassList): string[] {
  const found: string[] = [];
  for (let index = 0; index < classList.length; index++) {
    const name = classList.item(index);
    if (name !== null && isReaderClass(name)) found.push(name);
  }
  return found;
}

/** Makes the reader classes on `classList` exactly `wanted`; true when it changed anything. */
export function applyReaderClasses(classList: ClassList, wanted: readonly string[]): boolean {
  const stale = currentReaderClasses(classList).filter((name) => !wanted.includes(name));
  const missing = wanted.filter((name) => !classList.contains(name));
  if (stale.length > 0) classList.remove(...stale);
  if (missing.length > 0) classList.add(...missing);
  return stale.length > 0 || missing.length > 0;
}

type ObserverConstructor = new (callback: () => void) => {
  observe(target: Element, options: { attributes: true; attributeFilter: string[] }): void;
};

/**
 * Keeps the reader classes on `root` and updates them from each session answer. React
 * Helmet writes the root's whole `class` attribute at hydration and on every route change
 * (the page-type classes), which would drop ours; the observer puts them back in the same
 * frame, before the next paint, so nothing hidden ever flashes.
 */
export function keepReaderClasses(
  root: Element,
  session: { get: () => SessionState; subscribe: (listener: () => void) => unknown },
  Observer: ObserverConstructor = MutationObserver,
): void {
  // Until the session answers, keep what the head script guessed from the hint cookie.
  let wanted = readerClassesFor(session.get()) ?? currentReaderClasses(root.classList);
  applyReaderClasses(root.classList, wanted);
  new Observer(() => applyReaderClasses(root.classList, wanted)).observe(root, {
    attributes: true,
    attributeFilter: ['class'],
  });
  session.subscribe(() => {
    const next = readerClassesFor(session.get());
    if (next === null) return;
    wanted = next;
    applyReaderClasses(root.classList, wanted);
  });
}
