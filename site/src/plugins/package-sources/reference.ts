/**
 * The API reference of a synced package, from what `npm run sync` made of each release's type
 * declarations (packages/sync/reference.js: TypeDoc's model and typedoc-plugin-markdown's page
 * of each exported symbol): for every documented version `api/` (the symbols grouped by
 * kind), `api/<symbol>` (a page each) and `api/api-changes` (what each release removed,
 * changed and added, against the release published before it), and the package's models,
 * which the build leaves for the gate's MCP tools.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import semver from 'semver';

import { type ApiChanges, apiChanges, type ApiModels } from '@portal/built-site/api-reference';
import type { ApiModel, ApiSymbol, CachedSource, Source } from '@portal/sync';
import { fencedCode, markdownCode, markdownText, plainText, symbolNameProblem } from '@portal/sync/trust';

const SIDEBAR = 'tutorialSidebar';

/** The index's groups, in the order readers look for them. */
const GROUPS: { kinds: ApiSymbol['kind'][]; heading: string; one: string }[] = [
  { kinds: ['hook'], heading: 'Hooks', one: 'hook' },
  { kinds: ['function'], heading: 'Functions', one: 'function' },
  { kinds: ['class'], heading: 'Classes', one: 'class' },
  { kinds: ['interface'], heading: 'Interfaces', one: 'interface' },
  { kinds: ['type'], heading: 'Types', one: 'type' },
  { kinds: ['enum'], heading: 'Enumerations', one: 'enumeration' },
  { kinds: ['constant'], heading: 'Constants', one: 'constant' },
  { kinds: ['variable', 'namespace', 'other'], heading: 'Other exports', one: 'export' },
];

const kindName = (kind: ApiSymbol['kind']): string => GROUPS.find((group) => group.kinds.includes(kind))?.one ?? kind;

/**
 * What a release that removes or changes exported symbols is, when semantic versioning keeps
 * such a change for a major release: `patch` or `minor` (a 0.x release's minor may break);
 * undefined when the change is allowed or the release removes and changes nothing.
 */
export function breakingIn(
  change: Pick<ApiChanges<ApiSymbol>, 'from' | 'to' | 'removed' | 'changed'>,
): 'patch' | 'minor' | undefined {
  if (change.removed.length === 0 && change.changed.length === 0) return undefined;
  const step = semver.diff(change.from, change.to);
  if (step === 'patch' || step === 'prepatch') return 'patch';
  if ((step === 'minor' || step === 'preminor') && semver.major(change.to) > 0) return 'minor';
  return undefined;
}

/** The warning a release's changes carry when they break code in a release that semver says must not. */
export function breakingNote(change: ApiChanges<ApiSymbol>): string {
  const kind = breakingIn(change);
  if (!kind) return '';
  const what = [
    change.removed.length ? `removes ${count(change.removed.length, 'exported symbol')}` : '',
    change.changed.length ? `changes the declaration of ${count(change.changed.length, 'symbol')}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `Breaking in a ${kind} release: ${change.to} ${what} against ${change.from}, which semantic versioning keeps for a major release. Check the code that uses them before you upgrade.`;
}

const count = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The first sentence of a summary, as plain words on one line: for descriptions (escape it for Markdown). */
function firstSentence(summary: string): string {
  const line = plainText(summary.replace(/\{@link ([^}|]+)(\|[^}]*)?\}/g, '$1'));
  const end = line.search(/[.!?](\s|$)/);
  return end === -1 ? line : line.slice(0, end + 1);
}

/** One documented version's reference: its folder in the section (`''` for the newest, `2.3.0/`). */
export interface DocumentedVersion {
  version: string;
  folder: string;
  date: string | null;
}

export interface Reference {
  /** Files of the section, relative to its folder. */
  files: Map<string, string>;
  /** Per documented version, the version menu's pages the reference adds (`api`, `api/useFocusable`). */
  pages: Map<string, string[]>;
  /** The models the build leaves for the gate. */
  models: ApiModels<ApiSymbol>;
  /** The symbols of a documented version, for links from its pages. */
  symbolsOf: (version: string) => ApiSymbol[];
  /** What a release changed against the one before it; undefined for the first with a reference. */
  changesOf: (version: string) => ApiChanges<ApiSymbol> | undefined;
}

type Front = Record<string, unknown>;

/**
 * The reference of every documented version that the content cache has one for; versions
 * without one (a release without declarations) simply have none.
 */
export function sectionReference(
  source: Source,
  cached: CachedSource,
  documented: DocumentedVersion[],
  {
    cacheDir,
    page,
    notes = new Map(),
  }: {
    cacheDir: string;
    page: (frontMatter: Front, body: string) => string;
    /** The authors' line on what a symbol is for, by name, shown where the release's doc comment says nothing. */
    notes?: ReadonlyMap<string, string>;
  },
): Reference {
  const files = new Map<string, string>();
  const pages = new Map<string, string[]>();
  const name = source.package ?? source.title;
  const dates = new Map((cached.releases ?? []).map((release) => [release.version, release.date]));
  const models = new Map<string, ApiModel>();
  // The symbols whose summary is the authors' note.
  const noted = new WeakSet<ApiSymbol>();
  const withNote = (symbol: ApiSymbol): ApiSymbol => {
    const note = symbol.summary ? undefined : notes.get(symbol.name);
    if (!note) return symbol;
    const given = { ...symbol, summary: markdownText(note) };
    noted.add(given);
    return given;
  };
  for (const entry of cached.api ?? []) {
    if (!entry.dir) continue;
    const model = JSON.parse(readFileSync(join(cacheDir, entry.dir, 'model.json'), 'utf8')) as ApiModel;
    // The sync documents identifiers only; a model made otherwise is held to the same rule. A
    // symbol whose doc comment says nothing gets the authors' note as its summary.
    models.set(entry.version, {
      ...model,
      symbols: model.symbols.filter((symbol) => symbolNameProblem(symbol.name) === undefined).map(withNote),
    });
  }
  // Newest first in version order (the sync's): each release is compared with the next lower
  // version that has a reference, whatever the order the registry dates them in.
  const ordered = (cached.api ?? []).filter((entry) => models.has(entry.version)).map((entry) => entry.version);
  const previousOf = (version: string): string | undefined => ordered[ordered.indexOf(version) + 1];
  const changes = new Map<string, ApiChanges<ApiSymbol>>();
  for (const version of ordered) {
    const previous = previousOf(version);
    const to = models.get(version);
    const from = previous ? models.get(previous) : undefined;
    if (to && from) changes.set(version, apiChanges(from, to));
  }
  const folderOf = new Map(documented.map((entry) => [entry.version, entry.folder]));
  const basePath = `/docs/${source.section}/`;

  /** A symbol's history up to `version`: where it came in and which releases changed it. */
  const historyOf = (symbol: ApiSymbol, version: string): string => {
    const older = ordered.slice(ordered.indexOf(version));
    let since = version;
    const changedIn: string[] = [];
    for (const release of older) {
      const change = changes.get(release);
      if (!change) {
        since = release;
        break;
      }
      if (change.added.some((added) => added.name === symbol.name)) {
        since = release;
        break;
      }
      if (change.changed.some((changed) => changed.name === symbol.name)) changedIn.push(release);
      since = release;
    }
    const first = ordered.at(-1);
    const sinceText =
      since === first
        ? `Exported since ${since} or earlier (the oldest release documented here).`
        : `Added in ${since}.`;
    return `${sinceText}${changedIn.length ? ` Its declaration changed in ${changedIn.join(', ')}.` : ''}`;
  };

  for (const { version, folder } of documented) {
    const model = models.get(version);
    if (!model) continue;
    const apiDir = `${folder}api/`;
    const newest = folder === '';
    const common = (extra: Front): Front => ({
      ...extra,
      ...(newest ? {} : { displayed_sidebar: SIDEBAR }),
      package: source.id,
      package_version: version,
    });
    const versionPages = ['api', 'api/api-changes'];
    const change = changes.get(version);
    const previous = previousOf(version);

    // The index: every exported symbol, grouped by kind.
    const groups = GROUPS.map((group) => {
      const symbols = model.symbols
        .filter((symbol) => group.kinds.includes(symbol.kind))
        .sort((a, b) => a.name.localeCompare(b.name));
      if (symbols.length === 0) return '';
      const lines = symbols.map((symbol) => {
        const summary = firstSentence(symbol.summary);
        const from = symbol.from && symbol.from !== name ? ` (from ${markdownCode(symbol.from)})` : '';
        return `- [\`${symbol.name}\`](${symbol.slug}.md)${from}${summary ? `: ${markdownText(summary)}` : ''}`;
      });
      return `## ${group.heading}\n\n${lines.join('\n')}`;
    }).filter(Boolean);
    const reexported = [...new Set(model.symbols.map((symbol) => symbol.from).filter((from) => from && from !== name))];
    files.set(
      `${apiDir}index.md`,
      page(
        common({
          title: newest ? `${source.title} API reference` : `${source.title} ${version} API reference`,
          sidebar_label: 'API reference',
          description: `Every symbol ${name} ${version} exports, from its type declarations: hooks, functions, types and constants.`,
          pagination_prev: null,
          pagination_next: null,
        }),
        [
          `What \`${name}\` **${version}** exports, made from the type declarations the release carries (${model.symbols.length} symbols).${
            reexported.length
              ? ` It re-exports ${reexported.map((dependency) => markdownCode(dependency)).join(' and ')}, at the versions this release pins; their symbols are documented here, where you import them from.`
              : ''
          }`,
          change
            ? `Against ${previous}, the previous release in version order: ${change.removed.length} removed, ${change.changed.length} changed, ${change.added.length} added ([API changes](api-changes.md)).`
            : `[API changes](api-changes.md) between releases.`,
          change && breakingIn(change) ? admonition(breakingNote(change)) : '',
          ...groups,
          model.refused?.length
            ? `## Not documented here\n\n${model.refused.map((entry) => `- ${markdownCode(entry.name)}: ${markdownText(entry.reason)}.`).join('\n')}`
            : '',
        ]
          .filter(Boolean)
          .join('\n\n'),
      ),
    );

    // A page per symbol: the lead, its declaration, then typedoc-plugin-markdown's page.
    for (const symbol of model.symbols) {
      const body = readFileSync(
        join(cacheDir, (cached.api ?? []).find((e) => e.version === version)?.dir ?? '', 'pages', `${symbol.slug}.md`),
        'utf8',
      );
      const from =
        symbol.from && symbol.from !== name ? `, declared in ${markdownCode(symbol.from)} and re-exported` : '';
      const lead = `\`${symbol.name}\` is a ${kindName(symbol.kind)} of \`${name}\` **${version}**${from}. ${historyOf(symbol, version)} [All symbols of ${version}](index.md) · [API changes](api-changes.md)`;
      files.set(
        `${apiDir}${symbol.slug}.md`,
        page(
          {
            title: symbol.name,
            description:
              (firstSentence(symbol.summary) || `The ${kindName(symbol.kind)} ${symbol.name} of ${name}`).slice(
                0,
                200,
              ) + (newest ? '' : ` (version ${version})`),
            displayed_sidebar: SIDEBAR,
            pagination_prev: null,
            pagination_next: null,
            package: source.id,
            package_version: version,
            api_symbol: symbol.name,
          },
          // The plugin's page holds the doc comment; the authors' note stands in for a missing one.
          `${lead}\n\n${noted.has(symbol) ? `${symbol.summary}\n\n` : ''}${body}`,
        ),
      );
      versionPages.push(`api/${symbol.slug}`);
    }

    // What each release up to this one removed, changed and added: removed and changed first.
    const upTo = ordered.slice(ordered.indexOf(version));
    const sections = upTo.map((release) => {
      const releaseChange = changes.get(release);
      const date = dates.get(release);
      const published = date ? ` Published on ${date.slice(0, 10)}.` : '';
      const heading = `## Version ${release}`;
      if (!releaseChange) {
        const symbols = models.get(release)?.symbols.length ?? 0;
        return `${heading}\n\nThe oldest release with type declarations in the range documented here: ${symbols} exported symbols.${published}`;
      }
      const note = breakingNote(releaseChange);
      return [
        heading,
        `Compared with ${releaseChange.from}, the previous release in version order.${published}`,
        note ? admonition(note) : '',
        changesMarkdown(releaseChange, (symbol) => (release === version ? `${symbol.slug}.md` : undefined)),
      ]
        .filter(Boolean)
        .join('\n\n');
    });
    files.set(
      `${apiDir}api-changes.md`,
      page(
        common({
          title: newest ? `${source.title} API changes` : `${source.title} API changes up to ${version}`,
          sidebar_label: 'API changes',
          description: `What each release of ${name} up to ${version} removed, changed and added in its exported API, from the type declarations.`,
          pagination_prev: null,
          pagination_next: null,
        }),
        [
          `What each release of \`${name}\` removed, changed and added in its exported API, newest first, each against the previous release in version order (which is not always the one the registry dates before it). It is worked out from the type declarations each release carries, not from the changelog: a symbol is removed when the release no longer exports it, changed when its declaration reads differently. A patch or minor release that removes or changes a symbol is marked as breaking.`,
          ...sections,
        ].join('\n\n'),
      ),
    );
    pages.set(version, versionPages);
  }

  const apiModels: ApiModels<ApiSymbol> = {
    id: source.id,
    package: name,
    title: source.title,
    basePath,
    latest: documented[0]?.version ?? '',
    versions: ordered.map((version) => {
      const folder = folderOf.get(version);
      return {
        version,
        date: dates.get(version) ?? null,
        ...(folder !== undefined && models.has(version) ? { path: `${basePath}${folder}api/` } : {}),
        symbols: models.get(version)?.symbols ?? [],
      };
    }),
  };
  return {
    files,
    pages,
    models: apiModels,
    symbolsOf: (version) => (folderOf.has(version) ? (models.get(version)?.symbols ?? []) : []),
    changesOf: (version) => changes.get(version),
  };
}

/** A release's changes as Markdown: removed, changed (before and after), then added. `link` names a symbol's page where it has one. */
export function changesMarkdown(
  change: ApiChanges<ApiSymbol>,
  link: (symbol: ApiSymbol) => string | undefined,
): string {
  const named = (symbol: ApiSymbol) => {
    const href = link(symbol);
    return href ? `[\`${symbol.name}\`](${href})` : `\`${symbol.name}\``;
  };
  const parts: string[] = [];
  if (change.removed.length)
    parts.push(
      `### Removed\n\n${change.removed.map((symbol) => `- \`${symbol.name}\` (${kindName(symbol.kind)})`).join('\n')}`,
    );
  if (change.changed.length)
    parts.push(
      `### Changed\n\n${change.changed
        .map(
          (symbol) =>
            `- ${named(symbol)} (${kindName(symbol.kind)}):\n\n${fencedCode(
              diffLines(symbol.before, symbol.declaration).join('\n'),
              'diff',
            )
              .split('\n')
              .map((line) => `  ${line}`)
              .join('\n')}`,
        )
        .join('\n')}`,
    );
  if (change.added.length)
    parts.push(
      `### Added\n\n${change.added.map((symbol) => `- ${named(symbol)} (${kindName(symbol.kind)})`).join('\n')}`,
    );
  return parts.length ? parts.join('\n\n') : `No change to the exported API against ${change.from}.`;
}

/** The lines of two declarations as a diff: common lines kept, the others as removed and added (in order). */
function diffLines(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Longest common subsequence: declarations are short. common(i, j) is that of a[i..] and b[j..].
  const width = b.length + 1;
  const table = new Array<number>((a.length + 1) * width).fill(0);
  const common = (i: number, j: number): number => table[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * width + j] = a[i] === b[j] ? common(i + 1, j + 1) + 1 : Math.max(common(i + 1, j), common(i, j + 1));
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (common(i + 1, j) >= common(i, j + 1)) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  while (i < a.length) out.push(`- ${a[i++]}`);
  while (j < b.length) out.push(`+ ${b[j++]}`);
  return out;
}

/** A warning box around one paragraph. */
const admonition = (text: string): string => `:::warning\n\n${text}\n\n:::`;

/** The anchor of a release's section on the API changes page (`## Version 3.3.0`). */
export const changesAnchor = (version: string): string => `version-${version.replace(/\./g, '')}`;

/** The release history's line of a release: what its API changed, with a link to the changes page. */
export function historyLine(change: ApiChanges<ApiSymbol> | undefined, changesHref: string): string {
  if (!change) return '';
  const list = (symbols: ApiSymbol[]) => symbols.map((symbol) => `\`${symbol.name}\``).join(', ');
  const parts = [
    change.removed.length ? `removed ${list(change.removed)}` : '',
    change.changed.length ? `changed ${list(change.changed)}` : '',
    change.added.length ? `added ${list(change.added)}` : '',
  ].filter(Boolean);
  const breaking = breakingIn(change);
  return parts.length
    ? `API changes against ${change.from}, the previous release in version order: ${parts.join('; ')} ([API changes](${changesHref})).${breaking ? ` **Breaking in a ${breaking} release.**` : ''}`
    : `No change to the exported API against ${change.from}.`;
}

/**
 * Links the symbols a page's Markdown names to their reference pages: inline code that is a
 * symbol's name (`useFocusable`, `useFocusable()`) becomes a link, and a code block that uses
 * symbols is followed by a line linking each. Headings and existing links are left alone.
 * `linked` hears of each symbol linked, for the "where it is used" of its page.
 */
export function linkSymbols(
  markdown: string,
  symbols: ApiSymbol[],
  hrefOf: (symbol: ApiSymbol) => string,
  linked: (symbol: ApiSymbol) => void = () => {},
): string {
  if (symbols.length === 0) return markdown;
  const byName = new Map(symbols.map((symbol) => [symbol.name, symbol]));
  // Identifiers are looked up by name: no pattern is made of a release's names.
  const identifier = /[A-Za-z_$][\w$]*/g;
  const out: string[] = [];
  let fence: string | null = null;
  let used = new Set<string>();
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker;
      used = new Set();
      out.push(line);
      continue;
    }
    if (fence !== null) {
      out.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = null;
        const inBlock = [...used].map((name) => byName.get(name)).filter((symbol) => symbol !== undefined);
        inBlock.forEach(linked);
        if (inBlock.length)
          out.push(
            '',
            `API used above: ${inBlock.map((symbol) => `[\`${symbol.name}\`](${hrefOf(symbol)})`).join(', ')}.`,
          );
      } else for (const [word] of line.matchAll(identifier)) if (byName.has(word)) used.add(word);
      continue;
    }
    if (/^\s{0,3}#/.test(line)) {
      out.push(line);
      continue;
    }
    out.push(
      line.replace(/(\[)?`([A-Za-z_$][\w$]*)(\(\))?`/g, (whole: string, bracket: string | undefined, word: string) => {
        const symbol = byName.get(word);
        if (!symbol || bracket) return whole;
        linked(symbol);
        return `[${whole}](${hrefOf(symbol)})`;
      }),
    );
  }
  return out.join('\n');
}
