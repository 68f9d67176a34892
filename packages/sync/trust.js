// The one trust boundary for what a sync fetches (docs/security.md, "Package content is
// data"): a release's file names, export names, manifest fields, Markdown and doc comments
// come from outside, so everything the sync keeps and the site build writes from them passes
// here. Names become safe or are refused, naming the package, version and name; every write
// stays inside its folder; Markdown loses any front matter, raw HTML and unsafe link; sizes
// are capped. What is refused is reported, never silently dropped.
import { lstatSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

import remarkFrontmatter from 'remark-frontmatter';
import semver from 'semver';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

/** @import { Nodes, Root, RootContent, Parent } from 'mdast' */

/**
 * TOML front matter, which remark-frontmatter reads and mdast's types do not name (only YAML's).
 *
 * @typedef {{ type: 'toml', value: string }} Toml
 */

/** What one release may bring; docs/security.md gives the reasons. */
export const LIMITS = Object.freeze({
  /** A README, a page of docs/, a licence or a changelog. */
  fileBytes: 512 * 1024,
  /** Every file a release keeps, together. */
  releaseBytes: 8 * 1024 * 1024,
  /** Files a release keeps. */
  releaseFiles: 500,
  /** One type declaration file. */
  declarationFileBytes: 2 * 1024 * 1024,
  /** Every declaration file of a release and the dependencies it re-exports, together. */
  declarationBytes: 24 * 1024 * 1024,
  /** Declaration files of a release and its dependencies. */
  declarationFiles: 2_000,
  /** Exported symbols a release's reference documents. */
  symbols: 2_000,
  /** A symbol's name, a path segment. */
  nameLength: 100,
  /** A text field of package.json (description, licence, a dependency's range). */
  fieldLength: 300,
});

/** A symbol name the portal makes a page of: a JavaScript identifier, so it is its own slug. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** A path segment of a release file the portal keeps: letters, digits, dot, dash, underscore; no leading dot. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * `@scope/name@1.2.3` or `name@1.2.3`, for messages.
 *
 * @param {{ package: string, version: string }} release
 * @returns {string}
 */
export const releaseName = ({ package: name, version }) => `${name}@${version}`;

/**
 * Why `name` cannot be a symbol's page, or undefined when it can. Export names are any
 * string to TypeScript (`export { x as "a/../b" }`); the portal documents identifiers only.
 *
 * @param {unknown} name
 * @returns {string | undefined}
 */
export function symbolNameProblem(name) {
  if (typeof name !== 'string' || name.length === 0) return 'it has no name';
  if (name.length > LIMITS.nameLength) return `its name is longer than ${LIMITS.nameLength} characters`;
  if (!IDENTIFIER.test(name)) return 'its name is not a JavaScript identifier';
  return undefined;
}

/**
 * Why a release file's path (`docs/setup.md`) cannot be kept, or undefined when it can.
 *
 * @param {unknown} path
 * @returns {string | undefined}
 */
export function filePathProblem(path) {
  if (typeof path !== 'string' || path.length === 0) return 'it has no name';
  if (path.includes('\\') || isAbsolute(path)) return 'its name is not a relative path';
  const segments = path.split('/');
  if (segments.length > 8) return 'it lies more than 8 folders deep';
  for (const segment of segments) {
    if (segment.length > LIMITS.nameLength) return `a part of its name is longer than ${LIMITS.nameLength} characters`;
    if (!SEGMENT.test(segment)) return 'its name holds characters other than letters, digits, ".", "-" and "_"';
  }
  return undefined;
}

/**
 * The absolute path of `path` inside `dir`; throws when it would leave `dir` (`..`, an
 * absolute path), whatever made the name.
 *
 * @param {string} dir
 * @param {string} path
 * @returns {string}
 */
export function inside(dir, path) {
  const base = resolve(dir);
  const target = resolve(base, path);
  const within = relative(base, target);
  if (isAbsolute(path) || within === '' || within === '..' || within.startsWith(`..${sep}`) || isAbsolute(within))
    throw new Error(`Refused to write ${JSON.stringify(path)}: it is not inside ${base}.`);
  return target;
}

/**
 * Writes `data` at `path` inside `dir` (making its folders), never outside it.
 *
 * @param {string} dir
 * @param {string} path
 * @param {string | Uint8Array} data
 * @returns {string}
 */
export function writeInside(dir, path, data) {
  const target = inside(dir, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, data);
  return target;
}

/**
 * A plain file at `path` inside `dir` (no link, no folder that is a link out of `dir`), with
 * its size; undefined for anything else.
 *
 * @param {string} dir
 * @param {string} path
 * @returns {{ path: string, size: number } | undefined}
 */
export function regularFile(dir, path) {
  try {
    const real = realpathSync(inside(dir, path));
    const within = relative(realpathSync(dir), real);
    if (within === '' || within === '..' || within.startsWith(`..${sep}`) || isAbsolute(within)) return undefined;
    const stats = lstatSync(real);
    return stats.isFile() ? { path: real, size: stats.size } : undefined;
  } catch {
    return undefined;
  }
}

// ---- package.json -------------------------------------------------------------------------

/** npm's rule for package names (validate-npm-package-name's, for new packages). */
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/**
 * Is `name` a package name npm allows (so also a safe folder name under node_modules/)?
 *
 * @param {unknown} name
 * @returns {name is string}
 */
export const isPackageName = (name) => typeof name === 'string' && name.length <= 214 && PACKAGE_NAME.test(name);

/** A version range as npm writes them: no markup, no quotes. */
const RANGE = /^[A-Za-z0-9 .<>=^~|*+-]+$/;
/** An SPDX expression or a short licence name: no markup. */
const LICENCE = /^[A-Za-z0-9 .+()-]+$/;

/**
 * A text field with control characters and line breaks made spaces, trimmed and capped; undefined if empty.
 *
 * @param {unknown} value
 * @param {number} [max]
 * @returns {string | undefined}
 */
function text(value, max = LIMITS.fieldLength) {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return clean ? clean.slice(0, max) : undefined;
}

/**
 * @param {unknown} value
 * @returns {string | undefined}
 */
function webAddress(value) {
  const address = text(value, 2_000);
  if (!address) return undefined;
  try {
    const url = new URL(address.replace(/^git\+/, ''));
    return ['http:', 'https:', 'git:', 'ssh:'].includes(url.protocol) ? address : undefined;
  } catch {
    // git@host:owner/name.git, which URL cannot read
    return /^[\w.-]+@[\w.-]+:[\w./-]+$/.test(address) ? address : undefined;
  }
}

/**
 * What the portal reads of a release's package.json (`ManifestFields`).
 *
 * @typedef {object} ManifestFields
 * @property {string} [name]
 * @property {string} [description]
 * @property {string} [license]
 * @property {string} [homepage]
 * @property {string} [repository]
 * @property {Record<string, string>} [peerDependencies]
 */

/**
 * What the portal reads of a release's package.json, each field checked: a name npm allows, a
 * description and licence as plain text, web addresses, peer dependencies npm could install.
 * Anything else is left out.
 *
 * @param {any} data package.json as parsed: anything, each field read is checked here
 * @returns {ManifestFields}
 */
export function manifestFields(data) {
  if (typeof data !== 'object' || data === null) return {};
  const name = isPackageName(data.name);
  const licence = text(data.license, 100);
  const repository = typeof data.repository === 'string' ? data.repository : data.repository?.url;
  /** @type {Record<string, string>} */
  const peers = {};
  if (typeof data.peerDependencies === 'object' && data.peerDependencies !== null)
    for (const [peer, range] of Object.entries(data.peerDependencies).slice(0, 50)) {
      const clean = text(range, 100);
      if (isPackageName(peer) && clean && RANGE.test(clean) && semver.validRange(clean)) peers[peer] = clean;
    }
  const fields = {
    name: name ? data.name : undefined,
    description: text(plainText(text(data.description, 2_000) ?? '')),
    license: licence && LICENCE.test(licence) ? licence : undefined,
    homepage: webAddress(data.homepage),
    repository: webAddress(repository),
    peerDependencies: Object.keys(peers).length ? peers : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * A registry's or a tag's date as ISO text, or null when it is no date.
 *
 * @param {unknown} value
 * @returns {string | null}
 */
export function releaseDate(value) {
  if (typeof value !== 'string' || value.length > 40) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

// ---- Markdown -----------------------------------------------------------------------------

/** Schemes a link from package text may keep; anything else (`javascript:`, `data:`) loses its link. */
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * An absolute web or mail address, or a link within the page; undefined for anything else.
 *
 * @param {unknown} url
 * @returns {string | undefined}
 */
export function safeUrl(url) {
  if (typeof url !== 'string') return undefined;
  const trimmed = url.trim();
  if (trimmed.startsWith('#')) return trimmed;
  if (trimmed.startsWith('//')) return safeUrl(`https:${trimmed}`);
  try {
    const parsed = new URL(trimmed);
    return SAFE_SCHEMES.has(parsed.protocol) ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @param {Nodes} node
 * @returns {string}
 */
function textOf(node) {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return node.children.map(textOf).join('');
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  return '';
}

/**
 * Replaces each child that `change` maps, depth first; `null` drops it, an array splices.
 *
 * @param {Parent} parent
 * @param {(node: RootContent) => RootContent | RootContent[] | null | undefined} change
 */
function rewrite(parent, change) {
  /** @type {RootContent[]} */
  const out = [];
  for (const child of parent.children) {
    const changed = change(child);
    const next = changed === undefined ? [child] : changed === null ? [] : Array.isArray(changed) ? changed : [changed];
    for (const node of next) {
      if ('children' in node) rewrite(node, change);
      out.push(node);
    }
  }
  parent.children = out;
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml', 'toml']);
const printer = unified().use(remarkGfm).use(remarkStringify, { bullet: '-', fences: true, rule: '-', emphasis: '_' });

/**
 * Package Markdown as a syntax tree the portal may write out: no front matter (the portal
 * writes its own), no raw HTML (a package never puts markup or scripts into a page; the count
 * is answered), no images (readers' browsers fetch nothing from third parties, and the portal
 * serves no file a package chose): a badge, a link that holds only images, goes with them, and
 * a paragraph they leave empty too. Each link's address is mapped by `resolve` (an absolute web
 * address is kept by default); a link `resolve` cannot place, or with an unsafe scheme, keeps
 * only its text.
 *
 * @param {string} source
 * @param {{ resolve?: (url: string) => string | undefined }} [options]
 * @returns {{ tree: Root, droppedHtml: number, droppedImages: number }}
 */
export function untrustedMarkdown(source, { resolve: resolveUrl = safeUrl } = {}) {
  const tree = parser.parse(String(source).replace(/^\uFEFF/, ''));
  let droppedHtml = 0;
  let droppedImages = 0;
  const place = (/** @type {string | null | undefined} */ url) => {
    const resolved = typeof url === 'string' ? resolveUrl(url) : undefined;
    if (resolved === undefined) return undefined;
    return isRelative(resolved) || safeUrl(resolved) !== undefined ? resolved : undefined;
  };
  // Reference-style links become inline ones, each address placed like any other.
  /** @type {Map<string, string>} */
  const definitions = new Map();
  const collect = (/** @type {Nodes} */ node) => {
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
    else if ('children' in node) node.children.forEach(collect);
  };
  collect(tree);
  const isImage = (/** @type {Nodes} */ node) => node.type === 'image' || node.type === 'imageReference';
  const isBlank = (/** @type {Nodes} */ node) => node.type === 'text' && node.value.trim() === '';
  rewrite(tree, (/** @type {RootContent | Toml} */ node) => {
    switch (node.type) {
      case 'yaml':
      case 'toml':
      case 'definition':
        return null;
      case 'html':
        droppedHtml += 1;
        return null;
      case 'image':
      case 'imageReference':
        droppedImages += 1;
        return null;
      case 'link':
      case 'linkReference': {
        const children = node.children.filter((child) => !isImage(child));
        droppedImages += node.children.length - children.length;
        // A badge (a link around an image) says nothing once its image is gone.
        if (children.every(isBlank)) return null;
        const url = place(node.type === 'link' ? node.url : definitions.get(node.identifier));
        return url === undefined ? children : { type: 'link', url, title: null, children };
      }
      default:
        return undefined;
    }
  });
  // The spaces left beside a dropped image, and paragraphs that held only images and badges.
  rewrite(tree, (/** @type {RootContent} */ node) => {
    if (node.type !== 'paragraph' && node.type !== 'link') return undefined;
    const [first] = node.children;
    const last = node.children.at(-1);
    if (first?.type === 'text') first.value = first.value.trimStart();
    if (last?.type === 'text') last.value = last.value.trimEnd();
    return node.type === 'paragraph' && node.children.every(isBlank) ? null : undefined;
  });
  return { tree, droppedHtml, droppedImages };
}

/**
 * A relative link the site build made (`../CHANGELOG.md`, `api/index.md#x`): no scheme, no host.
 *
 * @param {string} url
 */
function isRelative(url) {
  return !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//');
}

/**
 * A syntax tree as Markdown; text that would read as markup is escaped by remark-stringify.
 *
 * @param {Root} tree
 * @returns {string}
 */
export function markdownOf(tree) {
  return String(printer.stringify(tree));
}

/**
 * Package Markdown made safe to write into a page (untrustedMarkdown, then back to Markdown).
 *
 * @param {string} source
 * @param {{ resolve?: (url: string) => string | undefined }} [options]
 * @returns {string}
 */
export function safeMarkdown(source, options) {
  return markdownOf(untrustedMarkdown(source, options).tree);
}

/**
 * The words of package Markdown on one line, without any markup: for a list line or a description.
 *
 * @param {string} source
 * @returns {string}
 */
export function plainText(source) {
  return textOf(untrustedMarkdown(source).tree).replace(/\s+/g, ' ').trim();
}

/**
 * Text from a package set into Markdown as words: every punctuation mark that could start markup escaped.
 *
 * @param {unknown} value
 * @returns {string}
 */
export function markdownText(value) {
  return String(value)
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_{}[\]()#+\-.!<>&|~"':]/g, (mark) => `\\${mark}`);
}

/**
 * Text from a package set into Markdown as inline code, whatever backticks it holds.
 *
 * @param {unknown} value
 * @returns {string}
 */
export function markdownCode(value) {
  const code = String(value).replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = code.startsWith('`') || code.endsWith('`') || /^ .* $/.test(code) ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}

/**
 * Code from a package as a fenced block no line of it can close.
 *
 * @param {string} code
 * @param {string} [language]
 * @returns {string}
 */
export function fencedCode(code, language = '') {
  const longest = Math.max(2, ...[...String(code).matchAll(/^\s*(`{3,})/gm)].map((match) => match[1].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${String(code).replace(/\n+$/, '')}\n${fence}`;
}

/**
 * What raw HTML a page's Markdown body would render, if any (the site build's last check
 * before it writes a page made from package text): the first HTML or front matter node found.
 *
 * @param {string} markdown
 * @returns {string | undefined}
 */
export function markupIn(markdown) {
  const tree = parser.parse(markdown);
  /** @type {string | undefined} */
  let found;
  const visit = (/** @type {Nodes | Toml} */ node) => {
    if (found) return;
    if (node.type === 'html' || node.type === 'yaml' || node.type === 'toml') found = node.value;
    else if ('children' in node) node.children.forEach(visit);
  };
  visit(tree);
  return found;
}
