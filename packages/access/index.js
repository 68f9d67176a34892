// The portal's access decision: the one place that says who may read which route. It
// reads the policy file beside it (`policy.js`). Imported by the gate server (which
// enforces it), by the build step that labels every file of the build with its access
// unit, and by the site (client guard, sidebar, cards, search, sitemap).
//
// Two sides meet here. A page belongs to one unit (`readersOf` answers `[unit]`); a file
// that pages of several units load is labelled with each of them. A reader holds units
// (`unitsOfGroups`): the units their groups read. A reader may read a file when they hold
// one of its units (`mayRead`).
// Plain ES module so that Node, Docusaurus' bundler and its config loader all read it as is.

import policyFile from './policy.js';

/**
 * The policy file as written (`policy.js`).
 *
 * @typedef {object} PolicyFile
 * @property {Record<string, { label: string, reads: 'all' | readonly string[] }>} groups `reads`: `'all'` or the
 *   names of the units the group reads.
 * @property {{ routes: readonly string[], sections: readonly string[] }} public
 * @property {Record<string, PolicyUnit>} units
 * @property {{ claim: string, emailDomains: readonly { domain: string, groups: readonly string[] }[] }} accounts
 * @property {{ email: string, label?: string }} requestAccess
 */

/**
 * An access unit as the policy file writes it.
 *
 * @typedef {object} PolicyUnit
 * @property {string} [label]
 * @property {readonly string[]} paths
 * @property {'all' | readonly string[]} [groups] Read by exactly these groups (`'all'`: every group), whatever their
 *   `reads` say.
 * @property {'listed' | 'hidden'} [whenLocked] Whether a signed-in reader who does not hold the unit sees it listed,
 *   locked, in the sidebar (default: `'listed'` for a licensable unit, else `'hidden'`).
 */

/**
 * Who may read something: everyone, or the units whose readers may (a page: its one unit;
 * a file that pages of several units load: each of them).
 *
 * @typedef {'public' | readonly string[]} Readers
 */

/**
 * A policy checked and compiled for matching (`compilePolicy`, which freezes it).
 *
 * @typedef {object} CompiledPolicy
 * @property {readonly { readonly name: string, readonly label: string }[]} groups
 * @property {readonly string[]} groupNames
 * @property {readonly string[]} fullAccessGroups Groups that read every unit.
 * @property {readonly string[]} fullAccess The label of files no page loads: `[all-units]`, held by the groups that
 *   read every unit.
 * @property {ReadonlyMap<string, readonly string[]>} unitsOfGroup Group → the units it reads (`all-units` last for a
 *   group that reads every unit).
 * @property {readonly { readonly name: string, readonly units: readonly string[] }[]} shelves One per set of units a
 *   group reads: held by a reader of all of them, searched as one bundle.
 * @property {readonly string[]} publicRoutes
 * @property {readonly string[]} publicSections
 * @property {readonly { readonly key: string, readonly section: string }[]} sectionPaths
 * @property {readonly CompiledUnit[]} units Every unit.
 * @property {readonly string[]} unitNames
 * @property {readonly { readonly domain: string, readonly groups: readonly string[] }[]} domainRules
 * @property {string} claim
 * @property {{ readonly email: string, readonly label: string }} requestAccess
 */

/**
 * A unit of a compiled policy.
 *
 * @typedef {object} CompiledUnit
 * @property {string} name
 * @property {string} label
 * @property {readonly string[]} groups
 * @property {boolean} licensable A product a partner may be given and may ask for (a group that does not read
 *   everything reads it); the others are the company's own or the portal's.
 * @property {boolean} listed Shown, locked, in the sidebar of a signed-in reader who does not hold it.
 */

/** The login route and the query parameter that carries where to go after signing in. */
export const LOGIN_PATH = '/login';
export const NEXT_PARAM = 'next';

/** What `readersOf` answers for a route everyone may read. */
export const PUBLIC = 'public';

const GROUP_NAME = /^[a-z][a-z0-9-]{0,31}$/;
/** A unit's name: it is a CSS class, a cookie value and a folder name, so nothing else. */
const UNIT_NAME = /^[a-z][a-z0-9-]{0,47}$/;

/**
 * The unit that only readers of every unit hold (groups that read `'all'`): the label of a
 * file that no page loads, so nobody else reads it by accident.
 */
export const ALL_UNITS = 'all-units';

/** The start of a shelf's name: every unit a group reads, searched as one bundle. */
const SHELF = 'shelf-';
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * Normalises a URL path the way the portal matches routes (spec §2): percent-decoded,
 * case ignored, trailing slashes ignored. Returns null for anything that cannot name a
 * page: bad percent-encoding, NUL or other control characters, backslashes, empty or dot
 * segments. Callers treat null as "no page, nobody reads it".
 *
 * @param {string} rawPath
 * @returns {string | null}
 */
export function normalizeRoute(rawPath) {
  if (typeof rawPath !== 'string') return null;
  let path;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  if (!path.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(path)) return null;
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  const segments = trimmed.split('/').slice(1);
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  return trimmed.toLowerCase();
}

/**
 * `key` is `section` or below it, by whole path segment.
 *
 * @param {string} key
 * @param {string} section
 */
const within = (key, section) => key === section || key.startsWith(section === '/' ? '/' : section + '/');

/**
 * Checks a policy and compiles it for matching. Every problem is named, all at once, so
 * a wrong policy is fixed in one go.
 *
 * @param {PolicyFile} file
 * @returns {Readonly<CompiledPolicy>}
 */
export function compilePolicy(file) {
  const problems = [];
  const groups = Object.entries(file.groups ?? {});
  const sectionEntries = Object.entries(file.units ?? {});
  if (groups.length === 0) problems.push('the policy names no groups');
  if (groups.length > 16) problems.push('the policy names more than 16 groups');
  for (const [name, group] of groups) {
    if (!GROUP_NAME.test(name)) problems.push(`group "${name}": a name is lower-case letters, digits and dashes`);
    if (typeof group.label !== 'string' || group.label.trim() === '') problems.push(`group "${name}" has no label`);
    if (group.reads !== 'all') {
      if (!Array.isArray(group.reads)) problems.push(`group "${name}": reads must be "all" or a list of units`);
      else
        for (const section of group.reads)
          if (!(section in (file.units ?? {})))
            problems.push(`group "${name}" reads unit "${section}", which the policy does not define`);
    }
  }

  const publicRoutes = (file.public?.routes ?? []).map((path) => normalizeRoute(path));
  const publicSections = (file.public?.sections ?? []).map((path) => normalizeRoute(path));
  for (const [index, key] of [...publicRoutes, ...publicSections].entries())
    if (key === null) problems.push(`public path #${index + 1} is not a path`);

  /** Every section path once, longest first, so the most specific section wins. */
  const sectionPaths = [];
  const seen = new Map();
  for (const [name, section] of sectionEntries) {
    if (!UNIT_NAME.test(name) || name === ALL_UNITS || name === PUBLIC || name.startsWith(SHELF))
      problems.push(
        `unit "${name}": a name is lower-case letters, digits and dashes (not "${ALL_UNITS}", "${PUBLIC}" or "${SHELF}…")`,
      );
    if (!Array.isArray(section.paths) || section.paths.length === 0) problems.push(`unit "${name}" has no paths`);
    for (const path of section.paths ?? []) {
      const key = normalizeRoute(path);
      if (key === null) problems.push(`unit "${name}": "${path}" is not a path`);
      else if (seen.has(key)) problems.push(`"${path}" is in both unit "${seen.get(key)}" and unit "${name}"`);
      else {
        seen.set(key, name);
        sectionPaths.push({ key, section: name });
      }
    }
  }
  sectionPaths.sort((a, b) => b.key.length - a.key.length);

  /** Section → the groups that read it, sorted. */
  const readers = new Map();
  for (const [name, section] of sectionEntries) {
    if (section.groups !== undefined && section.groups !== 'all') {
      if (!Array.isArray(section.groups))
        problems.push(`unit "${name}": groups must be "all" or a list of group names`);
      else
        for (const group of section.groups)
          if (!(group in (file.groups ?? {})))
            problems.push(`unit "${name}" is for group "${group}", which the policy does not define`);
    }
    const names = (
      section.groups === 'all'
        ? groups.map(([groupName]) => groupName)
        : Array.isArray(section.groups)
          ? section.groups
          : groups
              .filter(
                ([, group]) => group.reads === 'all' || (Array.isArray(group.reads) && group.reads.includes(name)),
              )
              .map(([groupName]) => groupName)
    )
      .slice()
      .sort();
    if (names.length === 0) problems.push(`unit "${name}" is read by no group`);
    if (section.whenLocked !== undefined && section.whenLocked !== 'listed' && section.whenLocked !== 'hidden')
      problems.push(`unit "${name}": whenLocked must be "listed" or "hidden"`);
    readers.set(name, Object.freeze(names));
  }

  const domainRules = (file.accounts?.emailDomains ?? []).map((rule) => ({
    domain: String(rule.domain ?? '').toLowerCase(),
    groups: rule.groups ?? [],
  }));
  for (const rule of domainRules) {
    if (!DOMAIN.test(rule.domain)) problems.push(`e-mail domain rule "${rule.domain}" is not a domain name`);
    for (const group of rule.groups)
      if (!(group in (file.groups ?? {})))
        problems.push(`e-mail domain rule "${rule.domain}" gives group "${group}", which the policy does not define`);
  }
  const claim = file.accounts?.claim;
  if (typeof claim !== 'string' || !/^[A-Za-z_][\w]*$/.test(claim))
    problems.push('accounts.claim must name a custom claim such as "groups"');
  const requestAccess = file.requestAccess;
  if (typeof requestAccess?.email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(requestAccess.email))
    problems.push('requestAccess.email must be an e-mail address');

  if (problems.length > 0) {
    const error = new Error(`The access policy is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    error.name = 'AccessPolicyError';
    throw error;
  }
  const groupNames = groups.map(([name]) => name);
  const fullAccess = groups
    .filter(([, group]) => group.reads === 'all')
    .map(([name]) => name)
    .sort();
  /** Group → the units it reads, in the policy's order (`all-units` for a group that reads all). */
  const unitsOfGroup = new Map(
    groupNames.map((group) => [
      group,
      Object.freeze([
        ...sectionEntries.map(([name]) => name).filter((name) => readers.get(name)?.includes(group)),
        ...(fullAccess.includes(group) ? [ALL_UNITS] : []),
      ]),
    ]),
  );
  /**
   * One shelf per set of units that a group reads (two or more): the search bundle of all
   * of them at once, which a reader holding every one of those units searches instead of
   * one bundle per unit (fewer bundles to merge, one ranking over them).
   */
  /** @type {{ name: string, units: readonly string[] }[]} */
  const shelves = [];
  for (const group of groupNames) {
    const units = (unitsOfGroup.get(group) ?? []).filter((unit) => unit !== ALL_UNITS);
    if (units.length < 2 || shelves.some((shelf) => shelf.units.join() === units.join())) continue;
    shelves.push(Object.freeze({ name: `${SHELF}${group}`, units: Object.freeze(units) }));
  }
  return Object.freeze({
    groups: Object.freeze(groups.map(([name, group]) => Object.freeze({ name, label: group.label }))),
    groupNames: Object.freeze(groupNames),
    fullAccessGroups: Object.freeze(fullAccess),
    fullAccess: Object.freeze([ALL_UNITS]),
    unitsOfGroup,
    shelves: Object.freeze(shelves),
    // No null is left: a public path that is none was a problem above.
    publicRoutes: Object.freeze(/** @type {string[]} */ (publicRoutes)),
    publicSections: Object.freeze(/** @type {string[]} */ (publicSections)),
    sectionPaths: Object.freeze(sectionPaths),
    units: Object.freeze(
      sectionEntries.map(([name, section]) => {
        // A product a partner may hold: a group that does not read everything reads it,
        // and no fixed groups keep it (the company's own pages and the portal's pages).
        const licensable =
          section.groups === undefined &&
          groups.some(([, group]) => Array.isArray(group.reads) && group.reads.includes(name));
        return Object.freeze({
          name,
          label: section.label ?? name,
          groups: readers.get(name),
          licensable,
          // Shown, locked, to a signed-in reader who does not hold it: a product they could
          // ask for. The company's own pages and the portal's are hidden unless said otherwise.
          listed: (section.whenLocked ?? (licensable ? 'listed' : 'hidden')) === 'listed',
        });
      }),
    ),
    unitNames: Object.freeze(sectionEntries.map(([name]) => name)),
    domainRules: Object.freeze(domainRules),
    claim,
    requestAccess: Object.freeze({ email: requestAccess.email, label: requestAccess.label ?? requestAccess.email }),
  });
}

/** The checked-in policy file as written, for tools and tests that derive a variant of it. */
export { policyFile };

/** The checked-in policy, compiled once. A broken policy stops whatever imports this. */
export const policy = compilePolicy(policyFile);

/** The groups, in the policy's order, with their labels. */
export const GROUPS = policy.groups;

/** Where a reader without access asks for it. */
export const REQUEST_ACCESS = policy.requestAccess;

/**
 * Who may read a route: `'public'` for everyone, else its unit (`[unit]`: the readers who
 * hold it), or null when no rule matches it (the build refuses such a page; the gate
 * treats an unmatched path as a page nobody reads).
 *
 * @param {string} rawPath a URL path, possibly percent-encoded, without query or hash
 * @param {CompiledPolicy} [compiled]
 * @returns {Readers | null}
 */
export function readersOf(rawPath, compiled = policy) {
  const key = normalizeRoute(rawPath);
  if (key === null) return null;
  if (compiled.publicRoutes.includes(key)) return PUBLIC;
  if (compiled.publicSections.some((section) => within(key, section))) return PUBLIC;
  const match = compiled.sectionPaths.find(({ key: section }) => within(key, section));
  return match ? unitReaders(match.section) : null;
}

/**
 * `[unit]`, one frozen array per unit name, so equal answers are the same array.
 *
 * @type {Map<string, readonly string[]>}
 */
const unitArrays = new Map();
/**
 * @param {string} unit
 * @returns {readonly string[]}
 */
function unitReaders(unit) {
  let readers = unitArrays.get(unit);
  if (readers === undefined) {
    readers = Object.freeze([unit]);
    unitArrays.set(unit, readers);
  }
  return readers;
}

/**
 * The unit a route belongs to: `'public'`, a unit name, or null.
 *
 * @param {string} rawPath
 * @param {CompiledPolicy} [compiled]
 * @returns {string | null}
 */
export function sectionOf(rawPath, compiled = policy) {
  const key = normalizeRoute(rawPath);
  if (key === null) return null;
  if (compiled.publicRoutes.includes(key) || compiled.publicSections.some((section) => within(key, section)))
    return PUBLIC;
  return compiled.sectionPaths.find(({ key: section }) => within(key, section))?.section ?? null;
}

/**
 * Whether a route is open to everyone. Everything not listed is private by default.
 *
 * @param {string} rawPath
 * @returns {boolean}
 */
export function isPublicRoute(rawPath) {
  return readersOf(rawPath) === PUBLIC;
}

/**
 * Whether a reader holding `units` (`unitsOfGroups`; null: signed out) may read a route.
 *
 * @param {readonly string[] | null} groups
 * @param {string} rawPath
 * @param {CompiledPolicy} [compiled]
 * @returns {boolean}
 */
export function canRead(groups, rawPath, compiled = policy) {
  return mayRead(groups, readersOf(rawPath, compiled));
}

/**
 * Whether a reader holding `groups` units (null: signed out) is among `readers` (a
 * `readersOf` answer, or a file's label: the units whose pages load it).
 *
 * @param {readonly string[] | null} groups
 * @param {Readers | null} readers
 * @returns {boolean}
 */
export function mayRead(groups, readers) {
  if (readers === PUBLIC) return true;
  if (readers === null || groups === null) return false;
  return readers.some((group) => groups.includes(group));
}

/**
 * The groups of a signed-in account: those named in its `groups` custom claim (unknown
 * names ignored) and those its e-mail domain gives, when the address is verified.
 * An account with none gets no session.
 *
 * @param {{ email?: string | null, emailVerified?: boolean, claims?: Record<string, unknown> | null }} account
 * @param {CompiledPolicy} [compiled]
 * @returns {string[]}
 */
export function groupsOfAccount(account, compiled = policy) {
  const found = new Set();
  const claimed = account.claims?.[compiled.claim];
  if (Array.isArray(claimed))
    for (const name of claimed) if (typeof name === 'string' && compiled.groupNames.includes(name)) found.add(name);
  const email = typeof account.email === 'string' ? account.email.toLowerCase() : '';
  const at = email.lastIndexOf('@');
  if (account.emailVerified === true && at > 0) {
    const domain = email.slice(at + 1);
    for (const rule of compiled.domainRules) if (rule.domain === domain) for (const g of rule.groups) found.add(g);
  }
  return compiled.groupNames.filter((name) => found.has(name));
}

/**
 * The groups that the claim names (what an administrator set), separate from what the
 * e-mail domain gives: the readers command and the admin page change only these.
 *
 * @param {Record<string, unknown> | null | undefined} claims
 * @param {CompiledPolicy} [compiled]
 * @returns {string[]}
 */
export function claimedGroups(claims, compiled = policy) {
  const claimed = claims?.[compiled.claim];
  return Array.isArray(claimed) ? compiled.groupNames.filter((name) => claimed.includes(name)) : [];
}

/**
 * The units a reader with these groups holds: every unit one of the groups reads, in the
 * policy's order, and `all-units` when a group reads them all. Unknown groups give nothing.
 *
 * @param {readonly string[]} groups
 * @param {CompiledPolicy} [compiled]
 * @returns {string[]}
 */
export function unitsOfGroups(groups, compiled = policy) {
  return withShelves(
    groups.flatMap((group) => compiled.unitsOfGroup.get(group) ?? []),
    compiled,
  );
}

/**
 * A reader's holdings from the units they hold, however they came by them (groups,
 * licences): the units in the policy's order, `all-units` if held, then every shelf whose
 * units they all hold. Units the policy does not have are dropped.
 *
 * @param {Iterable<string>} units
 * @param {CompiledPolicy} [compiled]
 * @returns {string[]}
 */
export function withShelves(units, compiled = policy) {
  const held = new Set(units);
  const holdings = [...compiled.unitNames, ALL_UNITS].filter((unit) => held.has(unit));
  for (const shelf of compiled.shelves) if (shelf.units.every((unit) => held.has(unit))) holdings.push(shelf.name);
  return holdings;
}

/**
 * The id of a page's access unit, for its search bundle and llms folder: `'public'` or the
 * unit's name.
 *
 * @param {Readers} readers a `readersOf` answer
 * @returns {string}
 */
export function unitId(readers) {
  return readers === PUBLIC ? PUBLIC : [...readers].sort().join('+');
}

/**
 * Every access unit the policy can give a page, public first.
 *
 * @param {CompiledPolicy} [compiled]
 * @returns {{ id: string, readers: Readers }[]}
 */
export function accessUnits(compiled = policy) {
  return [
    { id: PUBLIC, readers: /** @type {'public'} */ (PUBLIC) },
    ...compiled.unitNames.map((name) => ({ id: name, readers: unitReaders(name) })),
  ];
}

/** Where the build serves the search bundle of an access unit: `/search/public/`, `/search/player-core/`. */
export const SEARCH_ROOT = '/search/';

/**
 * Every search bundle the build makes, public first: one per unit (`readers`: the unit),
 * and one per shelf (`readers`: the shelf, which only a reader of all its units holds),
 * with the units whose pages each covers.
 *
 * @param {CompiledPolicy} [compiled]
 * @returns {{ id: string, readers: Readers, units: readonly string[] }[]}
 */
export function searchBundles(compiled = policy) {
  return [
    ...accessUnits(compiled).map((unit) => ({ ...unit, units: unit.readers === PUBLIC ? [] : unit.readers })),
    ...compiled.shelves.map((shelf) => ({ id: shelf.name, readers: unitReaders(shelf.name), units: shelf.units })),
  ];
}

/**
 * The search bundles a reader searches, public first (the bundle Pagefind loads; the others
 * merge into it): the public one, the largest shelves they hold (each the pages of many
 * units at once), then one per unit that no chosen shelf covers; nothing they do not hold.
 * The browser's search box, the search API and MCP all search these.
 *
 * @param {readonly string[] | null} units the reader's holdings (`unitsOfGroups`, `withShelves`); null: signed out
 * @param {CompiledPolicy} [compiled]
 * @returns {string[]}
 */
export function searchBundlesFor(units, compiled = policy) {
  const bundles = [`${SEARCH_ROOT}${PUBLIC}/`];
  if (units === null) return bundles;
  const covered = new Set();
  const shelves = compiled.shelves
    .filter((shelf) => units.includes(shelf.name))
    .sort((a, b) => b.units.length - a.units.length);
  for (const shelf of shelves) {
    if (shelf.units.every((unit) => covered.has(unit))) continue;
    bundles.push(`${SEARCH_ROOT}${shelf.name}/`);
    for (const unit of shelf.units) covered.add(unit);
  }
  for (const unit of compiled.unitNames)
    if (units.includes(unit) && !covered.has(unit)) bundles.push(`${SEARCH_ROOT}${unit}/`);
  return bundles;
}

/**
 * The CSS classes that mark a link, card or sidebar item with who may open its target, so
 * the site can show each reader only what they may open (see `accessStyles`): `portal-r`
 * and one `portal-r-<unit>` per unit that opens it (a category: each unit below it), or
 * `portal-r-public`, or `portal-r-none` for a target nobody may open. `portal-one-unit`
 * marks an item of one unit, `portal-listed` one with a unit a reader without it still
 * sees listed, locked.
 *
 * @param {Readers | null} readers
 * @param {CompiledPolicy} [compiled]
 * @returns {string}
 */
export function readersClass(readers, compiled = policy) {
  if (readers === PUBLIC) return 'portal-r-public';
  if (readers === null || readers.length === 0) return 'portal-r-none';
  let classes = 'portal-r';
  for (const unit of readers) classes += ` portal-r-${unit}`;
  if (readers.length === 1) classes += ' portal-one-unit';
  if (readers.some((unit) => compiled.units.find((entry) => entry.name === unit)?.listed)) classes += ' portal-listed';
  return classes;
}

/**
 * The selector of a sidebar item that a signed-in reader sees locked: they hold none of its
 * units, and one of them is listed (`whenLocked` in the policy). Such an item shows its
 * name with a lock; an item of one unit (a package's own entry) shows nothing below it.
 *
 * @param {CompiledPolicy} [compiled]
 * @returns {string}
 */
export function lockedItemSelector(compiled = policy) {
  return `html.portal-signed-in li.portal-listed${outsideSelector(compiled)}`;
}

/**
 * An item marked with units the reader (the root's `portal-u-*` classes) holds none of.
 *
 * @param {CompiledPolicy} compiled
 */
function outsideSelector(compiled) {
  const held = [...compiled.unitNames, ALL_UNITS].map((unit) => `.portal-u-${unit} .portal-r-${unit}`).join(',');
  return `.portal-r:not(:is(${held}))`;
}

/**
 * The stylesheet that hides, for a signed-in reader, every marked item they may not open,
 * except a sidebar item of a listed unit, which stays with its name only (nothing below a
 * package's own entry). The root element carries `portal-signed-in` and one
 * `portal-u-<unit>` class per unit the reader holds, or `portal-signed-out`; with neither
 * (not known yet) everything shows. An item is hidden unless one of its units is the
 * reader's: one selector per unit, so the sheet grows with the units, not with their
 * combinations. The locks themselves, for signed-out visitors and for listed units, are
 * the site's own styles (site/src/plugins/access-marks.ts).
 *
 * @param {CompiledPolicy} [compiled]
 * @returns {string}
 */
export function accessStyles(compiled = policy) {
  const outside = outsideSelector(compiled);
  const locked = lockedItemSelector(compiled);
  const rules = [
    // A listed unit's sidebar item stays, locked (below); everything else outside goes.
    `html.portal-signed-in ${outside}:not(li.portal-listed)`,
    `html.portal-signed-in .portal-r-none`,
    // A locked package's entry shows its name only: no pages below it, no caret to open them.
    `${locked}.portal-one-unit > .menu__list`,
    `${locked}.portal-one-unit > .menu__list-item-collapsible > .menu__caret`,
    // A card in a list sits in a column of its own (`article.col`): hide the column with it.
    `html.portal-signed-in article.col:has(> ${outside})`,
    `html.portal-signed-in article.col:has(> .portal-r-none)`,
  ];
  return `${rules.join(',\n')} { display: none !important; }\n`;
}

const BASE = 'https://portal.invalid';

/**
 * The place to go after signing in: `next` when it is a path on this site, else `/`.
 * Absolute and scheme-relative URLs, backslashes, control characters and whitespace,
 * and anything the URL parser would take off the site are all refused.
 *
 * @param {unknown} next
 * @returns {string}
 */
export function safeNextPath(next) {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2048) return '/';
  // eslint-disable-next-line no-control-regex
  if (!next.startsWith('/') || next.startsWith('//') || /[\u0000-\u0020\u007f-\u00a0\\]/.test(next)) return '/';
  let url;
  try {
    url = new URL(next, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE || url.username || url.password) return '/';
  const path = url.pathname + url.search + url.hash;
  // A path whose decoded form starts with // or /\ could still be read as another host
  // by some later consumer; refuse rather than guess.
  let decoded;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return '/';
  }
  if (decoded.startsWith('//') || decoded.startsWith('/\\')) return '/';
  return path;
}

/**
 * The login URL that brings the reader back to `path` afterwards.
 *
 * @param {string} path path, query and hash of the page the reader wanted
 * @returns {string}
 */
export function loginUrlFor(path) {
  const next = safeNextPath(path);
  return next === '/' ? LOGIN_PATH : `${LOGIN_PATH}?${NEXT_PARAM}=${encodeURIComponent(next)}`;
}
