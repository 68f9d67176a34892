// The API reference of each release, made once from its declarations (declarations.js) with
// TypeDoc and typedoc-plugin-markdown: `model.json`, one entry per exported symbol (its kind,
// a one-line signature and the summary of its doc comment), which the API changes compare;
// and `pages/<slug>.md`, the plugin's page of each symbol, which the site build turns into
// the reference pages. Releases whose reference is missing are converted in one TypeDoc run,
// which parses TypeScript's own libraries once for all of them.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative } from 'node:path';

import { readMarked } from './declarations.js';
import { LIMITS, markdownCode, safeMarkdown, safeUrl, symbolNameProblem, writeInside } from './trust.js';

/** @import { Comment as TypeDocComment, DeclarationReflection, ReflectionKind as TypeDocReflectionKind, SignatureReflection, SomeType, TypeParameterReflection } from 'typedoc' */

/**
 * One exported symbol of a release, as model.json holds it.
 *
 * @typedef {object} ApiSymbol
 * @property {string} name
 * @property {string} slug The page's name under api/ (the name, or name-kind where two differ only in case).
 * @property {'hook' | 'function' | 'class' | 'interface' | 'type' | 'enum' | 'namespace' | 'constant' | 'variable' | 'other'} kind
 * @property {string} declaration The declaration as one text: two releases whose texts differ changed the symbol.
 * @property {string} summary The summary of its doc comment, Markdown.
 * @property {string} [from] The package that declares it (a dependency it re-exports, or the package itself).
 * @property {string} [file] The file that declares it, in that package.
 */

/**
 * A release's reference: model.json.
 *
 * @typedef {object} ApiModel
 * @property {string} package
 * @property {string} version
 * @property {ApiSymbol[]} symbols
 * @property {{ name: string, reason: string }[]} [refused] Exports the trust boundary left out (a name that is no
 *   identifier, one too many), and why.
 */

/** Changes when the model or the pages change shape: every reference made before is made again. */
export const REFERENCE_FORMAT = 'reference 8';

const require = createRequire(import.meta.url);

/** The versions of TypeDoc and its Markdown plugin, which decide what a reference holds. */
export function referenceTools() {
  // From the package's main file up to its package.json: neither exports `./package.json`.
  const version = (/** @type {string} */ name) => {
    for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        if (manifest.name === name) return manifest.version;
      } catch {
        // not the package's folder yet
      }
    }
    return 'unknown';
  };
  return `typedoc ${version('typedoc')}, typedoc-plugin-markdown ${version('typedoc-plugin-markdown')}`;
}

/**
 * The marker a reference folder carries: its format, the tools and the declarations it was made from.
 *
 * @param {string} declarationsMarker
 * @returns {string}
 */
export function referenceMarker(declarationsMarker) {
  return `${REFERENCE_FORMAT}\n${referenceTools()}\n${declarationsMarker}`;
}

/**
 * What a reference folder holds (its model), when it is complete and made with `marker`.
 *
 * @type {(dir: string, marker: string) => ApiModel | undefined}
 */
export const readReference = (dir, marker) => readMarked(dir, marker, 'model.json');

/**
 * The kind readers look for a symbol by (the reference groups its index by these).
 *
 * @param {DeclarationReflection} reflection
 * @param {typeof TypeDocReflectionKind} ReflectionKind
 * @returns {ApiSymbol['kind']}
 */
function kindOf(reflection, ReflectionKind) {
  const callable =
    reflection.kindOf(ReflectionKind.Function) ||
    (reflection.kindOf(ReflectionKind.Variable) && reflection.type?.type === 'reflection'
      ? (reflection.type.declaration.signatures?.length ?? 0) > 0
      : false);
  if (callable) return /^use[A-Z0-9]/.test(reflection.name) ? 'hook' : 'function';
  if (reflection.kindOf(ReflectionKind.Class)) return 'class';
  if (reflection.kindOf(ReflectionKind.Interface)) return 'interface';
  if (reflection.kindOf(ReflectionKind.TypeAlias)) return 'type';
  if (reflection.kindOf(ReflectionKind.Enum)) return 'enum';
  if (reflection.kindOf(ReflectionKind.Namespace)) return 'namespace';
  if (reflection.kindOf(ReflectionKind.Variable)) return reflection.flags.isConst ? 'constant' : 'variable';
  return 'other';
}

const typeText = (/** @type {SomeType | undefined} */ type) => (type ? type.toString() : 'unknown');

/** @param {TypeParameterReflection[] | undefined} list */
function typeParameters(list) {
  if (!list?.length) return '';
  return `<${list
    .map(
      (parameter) =>
        `${parameter.name}${parameter.type ? ` extends ${typeText(parameter.type)}` : ''}${
          parameter.default ? ` = ${typeText(parameter.default)}` : ''
        }`,
    )
    .join(', ')}>`;
}

/**
 * @param {string} name
 * @param {SignatureReflection} signature
 */
function signatureText(name, signature) {
  const parameters = (signature.parameters ?? []).map(
    (parameter) =>
      `${parameter.flags.isRest ? '...' : ''}${parameter.name}${parameter.flags.isOptional || parameter.defaultValue ? '?' : ''}: ${typeText(parameter.type)}`,
  );
  return `${name}${typeParameters(signature.typeParameters)}(${parameters.join(', ')}): ${typeText(signature.type)}`;
}

/**
 * A member of an interface or class, one line.
 *
 * @param {DeclarationReflection} member
 * @param {typeof TypeDocReflectionKind} ReflectionKind
 * @returns {string | undefined}
 */
function memberText(member, ReflectionKind) {
  if (member.flags.isPrivate) return undefined;
  const prefix = `${member.flags.isStatic ? 'static ' : ''}${member.flags.isProtected ? 'protected ' : ''}${member.flags.isReadonly ? 'readonly ' : ''}`;
  if (member.signatures?.length)
    return member.signatures.map((signature) => `${prefix}${signatureText(member.name, signature)}`).join('; ');
  if (member.kindOf(ReflectionKind.Accessor))
    return `${prefix}${member.name}: ${typeText(member.getSignature?.type ?? member.setSignature?.parameters?.[0]?.type)}`;
  return `${prefix}${member.name}${member.flags.isOptional ? '?' : ''}: ${typeText(member.type)}`;
}

/**
 * The declaration of an exported symbol as one text, the same for the same API: two releases
 * whose texts differ changed the symbol.
 *
 * @param {DeclarationReflection} reflection
 * @param {ApiSymbol['kind']} kind
 * @param {typeof TypeDocReflectionKind} ReflectionKind
 * @param {string} [name]
 * @returns {string}
 */
export function declarationText(reflection, kind, ReflectionKind, name = reflection.name) {
  switch (kind) {
    case 'function':
    case 'hook': {
      // Only a reflection type has a declaration; any other type answers undefined.
      const signatures =
        reflection.signatures ??
        /** @type {{ declaration?: DeclarationReflection } | undefined} */ (reflection.type)?.declaration?.signatures ??
        [];
      return signatures.map((signature) => `function ${signatureText(name, signature)}`).join('\n');
    }
    case 'class':
    case 'interface': {
      const heritage = [
        reflection.extendedTypes?.length ? ` extends ${reflection.extendedTypes.map(typeText).join(', ')}` : '',
        reflection.implementedTypes?.length
          ? ` implements ${reflection.implementedTypes.map(typeText).join(', ')}`
          : '',
      ].join('');
      const members = (reflection.children ?? [])
        .filter((member) => !member.flags.isExternal || kind === 'interface')
        .filter((member) => !member.inheritedFrom)
        .map((member) => memberText(member, ReflectionKind))
        .filter(Boolean)
        .sort();
      const head = `${kind} ${name}${typeParameters(reflection.typeParameters)}${heritage}`;
      return members.length ? `${head} {\n${members.map((line) => `  ${line};`).join('\n')}\n}` : `${head} {}`;
    }
    case 'type':
      return `type ${name}${typeParameters(reflection.typeParameters)} = ${typeText(reflection.type)}`;
    case 'enum':
      return `enum ${name} { ${(reflection.children ?? [])
        .map((member) => `${member.name}${member.type ? ` = ${typeText(member.type)}` : ''}`)
        .join(', ')} }`;
    case 'constant':
    case 'variable':
      return `${kind === 'constant' ? 'const' : 'let'} ${name}: ${typeText(reflection.type)}`;
    default:
      return `${name}: ${typeText(reflection.type)}`;
  }
}

/**
 * The summary of a symbol's doc comment, as Markdown the trust boundary passed (no markup, no outside link).
 *
 * @param {DeclarationReflection} reflection
 * @param {typeof TypeDocComment} Comment
 * @returns {string}
 */
function summaryOf(reflection, Comment) {
  // Only a reflection type has a declaration; any other type answers undefined.
  const comment =
    reflection.comment ??
    reflection.signatures?.[0]?.comment ??
    /** @type {{ declaration?: DeclarationReflection } | undefined} */ (reflection.type)?.declaration?.signatures?.[0]
      ?.comment;
  return comment ? safeMarkdown(Comment.combineDisplayParts(comment.summary)).trim() : '';
}

/**
 * The package a declaration file belongs to, from its path in a declarations folder.
 *
 * @param {string} fullFileName
 * @param {string} own
 * @returns {{ name: string, file: string }}
 */
function declaringPackage(fullFileName, own) {
  const path = fullFileName.replace(/\\/g, '/');
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (match) return { name: match[1], file: match[2] };
  const inPackage = /\/package\/(.*)$/.exec(path);
  return { name: own, file: inPackage ? inPackage[1] : posix.basename(path) };
}

/** The reference's own pages beside the symbols' (`api/` and `api/api-changes`). */
const RESERVED = new Set(['index', 'readme', 'api-changes']);

/**
 * Page names unique without regard to case (the gate matches paths so), and apart from the
 * reference's own pages: a clash gets its kind.
 *
 * @param {readonly { name: string, kind: string }[]} symbols
 * @returns {string[]}
 */
function slugs(symbols) {
  /** @type {Map<string, number>} */
  const taken = new Map();
  for (const symbol of symbols) {
    const key = symbol.name.toLowerCase();
    taken.set(key, (taken.get(key) ?? 0) + 1);
  }
  const given = new Set(RESERVED);
  return symbols.map((symbol) => {
    const base =
      /** @type {number} */ (taken.get(symbol.name.toLowerCase())) > 1 || RESERVED.has(symbol.name.toLowerCase())
        ? `${symbol.name}-${symbol.kind}`
        : symbol.name;
    let slug = base;
    for (let count = 2; given.has(slug.toLowerCase()); count++) slug = `${base}-${count}`;
    given.add(slug.toLowerCase());
    return slug;
  });
}

/**
 * Makes the reference of each release in `releases` (each `{ version, declarations, dir,
 * marker, package, entry }`, `declarations` the folder declarations.js filled, `dir` where the
 * reference goes) in one TypeDoc run. A release whose conversion fails is answered with its
 * error and left without a reference; the others are kept.
 *
 * @param {{ version: string, declarations: string, dir: string, marker: string, package: string, entry: string }[]} releases
 * @returns {Promise<{ version: string, error?: string }[]>}
 */
export async function makeReferences(releases) {
  if (releases.length === 0) return [];
  const { Application, Comment, ReflectionKind } = await import('typedoc');
  const { MarkdownPageEvent } = await import('typedoc-plugin-markdown');
  const scratch = `${dirname(releases[0].dir)}/.typedoc.${process.pid}.tmp`;
  const entryPoints = releases.map((release) => join(release.declarations, 'package', release.entry));
  // No options files are read (the empty list of readers): the reference depends on the release alone.
  const app = await Application.bootstrapWithPlugins(
    // The plugin's options, and its output folder (`markdown`), which neither's types declare to TypeDoc.
    /** @type {Partial<import('typedoc').TypeDocOptions & import('typedoc-plugin-markdown').PluginOptions> & { markdown: string }} */ ({
      entryPoints,
      entryPointStrategy: 'resolve',
      plugin: ['typedoc-plugin-markdown'],
      markdown: scratch,
      readme: 'none',
      skipErrorChecking: true,
      excludePrivate: true,
      excludeInternal: true,
      logLevel: 'Error',
      compilerOptions: { skipLibCheck: true, noEmit: true, strict: true, types: [], lib: ['es2022', 'dom'] },
      // typedoc-plugin-markdown: a page per exported symbol, without the headings the portal's page gives.
      outputFileStrategy: 'members',
      flattenOutputFiles: true,
      hidePageHeader: true,
      hideBreadcrumbs: true,
      hidePageTitle: true,
      useCodeBlocks: true,
      // Parameters, members and type declarations as tables of name, type and description.
      parametersFormat: 'table',
      interfacePropertiesFormat: 'table',
      classPropertiesFormat: 'table',
      typeAliasPropertiesFormat: 'table',
      enumMembersFormat: 'table',
      propertyMembersFormat: 'table',
      typeDeclarationFormat: 'table',
      tableColumnSettings: { hideSources: true },
      // Signatures and the code of doc comments over lines of 80 characters (the file beside this one).
      formatWithPrettier: true,
      prettierConfigFile: join(dirname(new URL(import.meta.url).pathname), 'reference.prettierrc.json'),
    }),
    [],
  );
  const project = await app.convert();
  if (!project)
    return releases.map(({ version }) => ({ version, error: 'TypeDoc could not convert the declarations' }));
  // One entry point: the project is the module; several: a module each, found by its entry file.
  /** @type {Map<(typeof releases)[number], import('typedoc').ContainerReflection>} */
  const moduleOf = new Map();
  if (releases.length === 1) moduleOf.set(releases[0], project);
  else
    for (const child of project.children ?? []) {
      const file = child.sources?.[0]?.fullFileName;
      const release = releases.find((candidate, index) => file && file === entryPoints[index]);
      if (release && child.kindOf(ReflectionKind.Module)) moduleOf.set(release, child);
    }

  // A destructured parameter is named by its pattern in a declaration file (`{ focusable, …
  // }`), which makes a signature one long line and the parameters' table a list of names:
  // it is called `options` (or `items`, an array's), as a reader would call it.
  for (const parameter of project.getReflectionsByKind(ReflectionKind.Parameter)) {
    if (/^\s*\{/.test(parameter.name) || parameter.name === '__namedParameters') parameter.name = 'options';
    else if (/^\s*\[/.test(parameter.name)) parameter.name = 'items';
  }

  const pageOf = new Map(); // reflection → { url, contents }
  app.renderer.on(MarkdownPageEvent.END, (page) => {
    if (page.model) pageOf.set(page.model, { url: page.url, contents: page.contents ?? '' });
  });
  await app.generateOutputs(project);
  rmSync(scratch, { recursive: true, force: true });

  const results = [];
  for (const release of releases) {
    const module = moduleOf.get(release);
    if (!module) {
      results.push({ version: release.version, error: 'TypeDoc found no module in its declarations' });
      continue;
    }
    // A declaration file two releases share word for word is converted once: the later release
    // holds a reference to the earlier one's symbol, which is its own symbol too.
    const all = (module.children ?? [])
      .filter((child) => !child.kindOf(ReflectionKind.Module))
      .map((child) =>
        child.kindOf(ReflectionKind.Reference)
          ? {
              name: child.name,
              // What a reference of an export leads to is the declaration exported.
              target: /** @type {DeclarationReflection} */ (
                /** @type {import('typedoc').ReferenceReflection} */ (child).getTargetReflectionDeep()
              ),
            }
          : { name: child.name, target: child },
      );
    // Export names are any string to TypeScript: a page is made for identifiers only, and the
    // others are named in the model, so /admin/sources and the index can say what was left out.
    const refused = [];
    const exported = [];
    for (const entry of all) {
      const problem =
        symbolNameProblem(entry.name) ??
        (exported.length >= LIMITS.symbols ? `the release exports more than ${LIMITS.symbols} symbols` : undefined);
      if (problem) refused.push({ name: entry.name.slice(0, LIMITS.nameLength), reason: problem });
      else exported.push(entry);
    }
    // Each symbol gets its slug below, once every name is known.
    const symbols = /** @type {ApiSymbol[]} */ (
      exported.map(({ name, target: reflection }) => {
        const kind = kindOf(reflection, ReflectionKind);
        const source = reflection.sources?.[0];
        const from = source ? declaringPackage(source.fullFileName, release.package) : undefined;
        return {
          name,
          kind,
          declaration: declarationText(reflection, kind, ReflectionKind, name),
          summary: summaryOf(reflection, Comment),
          ...(from ? { from: from.name, file: from.file } : {}),
        };
      })
    );
    const names = slugs(symbols);
    symbols.forEach((symbol, index) => (symbol.slug = names[index]));
    // The plugin's links between pages, by the symbol a page is of: each becomes a link to that symbol's page here.
    const slugByName = new Map(symbols.map((symbol, index) => [symbol.name, names[index]]));
    const slugByUrl = new Map();
    for (const [reflection, page] of pageOf) {
      const slug = slugByName.get(reflection.name);
      if (slug) slugByUrl.set(page.url, slug);
    }
    const staging = `${release.dir}.${process.pid}.tmp`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(join(staging, 'pages'), { recursive: true });
    const pageNames = new Set(names);
    exported.forEach(({ target: reflection }, index) => {
      const page = pageOf.get(reflection);
      const symbol = symbols[index];
      const body = page ? relink(page.contents, page.url, slugByUrl) : '';
      writeInside(join(staging, 'pages'), `${symbol.slug}.md`, cleanPage(body, release.package, pageNames));
    });
    const model = {
      package: release.package,
      version: release.version,
      symbols,
      ...(refused.length ? { refused } : {}),
    };
    writeFileSync(join(staging, 'model.json'), `${JSON.stringify(model, null, 1)}\n`);
    writeFileSync(join(staging, '.complete'), release.marker);
    rmSync(release.dir, { recursive: true, force: true });
    mkdirSync(dirname(release.dir), { recursive: true });
    renameSync(staging, release.dir);
    results.push({ version: release.version });
  }
  return results;
}

/**
 * The plugin's links to other pages of the run, made links to the symbol pages beside this one; others lose their link.
 *
 * @param {string} markdown
 * @param {string} url
 * @param {ReadonlyMap<string, string>} slugByUrl
 * @returns {string}
 */
function relink(markdown, url, slugByUrl) {
  return markdown.replace(/\[([^\]]*)\]\(([^)\s]+?\.md)(#[^)\s]*)?\)/g, (whole, text, target, anchor = '') => {
    const slug = slugByUrl.get(posix.normalize(posix.join(posix.dirname(url), target)));
    // Properties are rows of a table, not headings: a link to one leads to its page.
    return slug ? `[${text}](${slug}.md${anchor.startsWith('#property-') ? '' : anchor})` : text;
  });
}

/**
 * A page as the portal shows it: the place of its declaration named by package, not by a path
 * of the cache; and, since its text comes from the release's doc comments, through the trust
 * boundary (no front matter, no markup, links only to the symbol pages beside it or the web).
 *
 * @param {string} markdown
 * @param {string} own
 * @param {ReadonlySet<string>} pageNames
 * @returns {string}
 */
function cleanPage(markdown, own, pageNames) {
  const text = markdown
    // A deprecated member's heading is struck through; its "Deprecated" section says so, and a
    // heading's text stays the same in the page and its Markdown twin.
    .replace(/^(#{1,6} )~~(.+?)~~\s*$/gm, '$1$2')
    .replace(/^Defined in: (.+?)(:\d+)?$/gm, (_, path) => {
      const { name, file } = declaringPackage(`/${path.replace(/\\(.)/g, '$1')}`, own);
      return `Declared in ${markdownCode(name)} (${markdownCode(file)}).`;
    });
  const resolve = (/** @type {string} */ url) => {
    const page = /^([^/#?]+)\.md(#[\w-]*)?$/.exec(url);
    return page && pageNames.has(page[1] ?? '') ? url : safeUrl(url);
  };
  return `${safeMarkdown(text, { resolve }).trim()}\n`;
}

/**
 * Where a release's declarations and reference lie in the cache, relative to it.
 *
 * @param {string} cacheDir
 * @param {string} name
 * @param {string} version
 * @returns {{ declarations: string, reference: string, relative: string }}
 */
export function referencePaths(cacheDir, name, version) {
  const base = join(cacheDir, 'types', name.replace('/', '+'), version);
  return {
    declarations: join(base, 'declarations'),
    reference: join(base, 'reference'),
    relative: relative(cacheDir, base),
  };
}
