import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { accessStyles, lockedItemSelector } from '@portal/access';

export { GROUPS_HINT_COOKIE } from '../auth/session-store';

/** What the head script touches; the browser's `document`, or a fake one in tests. */
export interface HintDocument {
  cookie: string;
  documentElement: { classList: { add(...tokens: string[]): void } };
}

/**
 * Marks the root element with the groups the `portal_groups` cookie names and the units
 * the `portal_units` cookie names, so the first paint already hides what the reader may
 * not open; the session answer confirms or corrects it (src/auth/reader-classes.ts). Without the cookie the reader is signed out
 * (the gate sets it with every session), so the first paint already shows the locks and
 * nothing moves when the page learns it. A malformed cookie marks nothing: then
 * everything shows until the answer. Inlined in every page's head by its source text, so
 * it must stay self-contained (no imports, no helpers, nothing the transpiler would add).
 */
export function applyGroupsHint(doc: HintDocument): void {
  const match = /(?:^|;\s*)portal_groups=([^;]*)/.exec(doc.cookie);
  if (!match) {
    doc.documentElement.classList.add('portal-signed-out');
    return;
  }
  const groups = match[1].split('.');
  for (let index = 0; index < groups.length; index++) if (!/^[a-z0-9-]{1,32}$/.test(groups[index])) return;
  if (groups.length > 16) return;
  const held = /(?:^|;\s*)portal_units=([^;]*)/.exec(doc.cookie);
  const units = held ? held[1].split('.') : [];
  for (let index = 0; index < units.length; index++) if (!/^[a-z][a-z0-9-]{0,47}$/.test(units[index])) return;
  if (units.length > 256) return;
  doc.documentElement.classList.add('portal-signed-in');
  for (let index = 0; index < groups.length; index++) doc.documentElement.classList.add('portal-g-' + groups[index]);
  for (let index = 0; index < units.length; index++) doc.documentElement.classList.add('portal-u-' + units[index]);
}

/** The inline head script: `applyGroupsHint` on the page's document, never throwing. */
export function groupsHintScript(): string {
  return `(function(){try{(${applyGroupsHint.toString()})(document)}catch(e){}})();`;
}

/** An item marked with readers other than everyone (readersClass in packages/access). */
const PRIVATE = `[class*='portal-r-']:not(.portal-r-public)`;

/** A padlock, drawn in the text colour through a mask (no emoji font needed, dark mode follows). */
const LOCK_ICON = `url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath d='M4 7V5a4 4 0 1 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 1 0-4 0v2z'/%3E%3C/svg%3E")`;

/** A lock drawn as generated content, read by a screen reader as `words`. */
const lockDeclarations = (words: string): string => `  content: '';
  content: '' / '${words}';
  display: inline-block;
  flex: none;
  width: 0.75em;
  height: 0.75em;
  margin-left: 0.35em;
  /* Infima turns a collapsed category link's ::after (its caret elsewhere) by 90 degrees. */
  transform: none;
  background-color: currentColor;
  -webkit-mask: ${LOCK_ICON} center / contain no-repeat;
  mask: ${LOCK_ICON} center / contain no-repeat;`;

/**
 * The lock on private items for a signed-out visitor. They see the private items rather
 * than nothing: most are readers who have not signed in yet, and the sidebar tells them
 * what the portal holds and that signing in opens it (route paths and titles are public by
 * design). The lock is generated content with alternative text, so a screen reader reads
 * the link as "Blog (sign in to read)"; a browser without the `/ alt` syntax keeps the
 * first `content` and shows the lock without words, and the link still leads to sign-in.
 */
export const lockMarkStyles = `
html.portal-signed-out ${PRIVATE} > .menu__link::after,
html.portal-signed-out ${PRIVATE} > .menu__list-item-collapsible > .menu__link:not(.menu__link--sublist-caret)::after,
html.portal-signed-out ${PRIVATE} > .menu__list-item-collapsible > .menu__link--sublist-caret::before,
html.portal-signed-out a${PRIVATE}:not(.card)::after,
html.portal-signed-out ${PRIVATE} h2::after,
html.portal-signed-out ${PRIVATE} .pagination-nav__sublabel::after {
${lockDeclarations('(sign in to read)')}
}
/* The portal's own components (home page, not-found page) say where a lock goes: AccessLock. */
.portal-lock {
  display: none;
}
html.portal-signed-out .portal-lock {
  display: inline-block;
  flex: none;
  width: 0.75em;
  height: 0.75em;
  margin-left: 0.35em;
  vertical-align: baseline;
  background-color: currentColor;
  -webkit-mask: ${LOCK_ICON} center / contain no-repeat;
  mask: ${LOCK_ICON} center / contain no-repeat;
}
/* A sidebar category without a page of its own draws its caret as ::after: the lock goes before it. */
html.portal-signed-out ${PRIVATE} > .menu__list-item-collapsible > .menu__link--sublist-caret::before {
  order: 1;
}
html.portal-signed-out ${PRIVATE} > .menu__list-item-collapsible > .menu__link--sublist-caret::after {
  order: 2;
}
`;

/** A listed unit a signed-in reader does not hold, in the sidebar (packages/access). */
const LOCKED = lockedItemSelector();

/**
 * The lock on a sidebar item a signed-in reader sees listed but may not open: a package
 * their licence does not include. Its link leads to the refusal page, where they can ask
 * for it. A package's own entry shows no caret (nothing below it opens); a group of
 * packages keeps its caret, and each package in it shows its own lock.
 */
export const lockedItemStyles = `
${LOCKED} > .menu__link::after,
${LOCKED} > .menu__list-item-collapsible > .menu__link:not(.menu__link--sublist-caret)::after,
${LOCKED} > .menu__list-item-collapsible > .menu__link--sublist-caret::before {
${lockDeclarations('(locked)')}
}
${LOCKED} > .menu__list-item-collapsible > .menu__link--sublist-caret::before {
  order: 1;
}
${LOCKED} > .menu__list-item-collapsible > .menu__link--sublist-caret::after {
  order: 2;
}
${LOCKED}.portal-one-unit > .menu__list-item-collapsible > .menu__link--sublist-caret::after {
  display: none;
}
${LOCKED} > .menu__link,
${LOCKED} > .menu__list-item-collapsible > .menu__link {
  color: var(--ifm-color-emphasis-700);
}
`;

/** Where the access styles are written, inside Docusaurus's generated files. */
export const OUT_DIR = 'access-marks';

/** The access styles: hide or lock what a reader may not open (packages/access), and the locks. */
export function accessMarksCss(): string {
  return accessStyles() + lockMarkStyles + lockedItemStyles;
}

/**
 * Marks who may open what on every page: the access styles (hide, for a signed-in reader,
 * every item outside their units, or lock it when its unit is listed; a lock for a
 * signed-out visitor) go into the site's stylesheet as a client module, which every page
 * loads before its first paint and a browser keeps between pages; the head script that
 * applies the groups hint is inline (the build step hashes inline scripts for the CSP), so
 * the root element carries the reader's classes before that stylesheet applies.
 */
export default function accessMarks(context: LoadContext): Plugin {
  const outDir = join(context.generatedFilesDir, OUT_DIR);
  return {
    name: 'access-marks',
    async loadContent() {
      await mkdir(outDir, { recursive: true });
      await writeFile(join(outDir, 'access.css'), accessMarksCss());
    },
    getClientModules() {
      return [join(outDir, 'access.css')];
    },
    injectHtmlTags() {
      return { headTags: [{ tagName: 'script', innerHTML: groupsHintScript() }] };
    },
  };
}
