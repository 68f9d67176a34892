import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { ALL_UNITS, accessStyles, lockedItemSelector, policy } from '@portal/access';

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
  // A partner reads through their organisation's licence alone: no groups, an empty value.
  const groups = match[1] === '' ? [] : match[1].split('.');
  for (let index = 0; index < groups.length; index++) if (!/^[a-z0-9-]{1,32}$/.test(groups[index])) return;
  if (groups.length > 16) return;
  const held = /(?:^|;\s*)portal_units=([^;]*)/.exec(doc.cookie);
  const units = held && held[1] !== '' ? held[1].split('.') : [];
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

/** A link in a page's text marked with the units it needs (src/access/link-locks.ts). */
const TEXT_LINK = '.markdown a[data-units]';

/** Such a link that a signed-in reader holds none of the units of. */
const heldLink = [
  ...policy.unitNames.map((unit) => `.portal-u-${unit} a[data-units~='${unit}']`),
  `.portal-u-${ALL_UNITS} a`,
].join(', ');
const LOCKED_LINK_IN = `html.portal-signed-in ${TEXT_LINK}:not(:is(${heldLink}))`;
const LOCKED_LINK_OUT = `html.portal-signed-out ${TEXT_LINK}`;

/**
 * A link in a page's text to a page the reader may not open carries the sidebar's lock and
 * its words for a screen reader ("(locked)", or "(sign in to read)" when signed out), and
 * says why on hover and keyboard focus, in a note above it. The page it leads to answers
 * with the refusal page, where a reader can ask for the package.
 */
export const lockedLinkStyles = `
${LOCKED_LINK_IN}::after {
${lockDeclarations('(locked)')}
}
${LOCKED_LINK_OUT}::after {
${lockDeclarations('(sign in to read)')}
}
${LOCKED_LINK_IN}, ${LOCKED_LINK_OUT} {
  position: relative;
}
${LOCKED_LINK_IN}:is(:hover, :focus-visible)::before,
${LOCKED_LINK_OUT}:is(:hover, :focus-visible)::before {
  position: absolute;
  bottom: calc(100% + 0.25rem);
  left: 0;
  z-index: var(--ifm-z-index-dropdown);
  width: max-content;
  max-width: min(20rem, 80vw);
  padding: 0.25rem 0.5rem;
  border-radius: var(--ifm-global-radius);
  background: var(--ifm-color-emphasis-900);
  color: var(--ifm-color-emphasis-0);
  font-size: 0.8rem;
  font-weight: normal;
  line-height: 1.3;
  white-space: normal;
  pointer-events: none;
}
/* Shown, not read: a screen reader hears the link's name and "(locked)", not the note again. */
${LOCKED_LINK_IN}:is(:hover, :focus-visible)::before {
  content: attr(data-locked-in) / '';
}
${LOCKED_LINK_OUT}:is(:hover, :focus-visible)::before {
  content: attr(data-locked-out) / '';
}
`;

/** Where the access styles are written, inside Docusaurus's generated files. */
export const OUT_DIR = 'access-marks';

/** The access styles: hide or lock what a reader may not open (packages/access), and the locks. */
export function accessMarksCss(): string {
  return accessStyles() + lockMarkStyles + lockedItemStyles + lockedLinkStyles;
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
