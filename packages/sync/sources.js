// The sources file: where each package section's pages come from. Read and checked once,
// by `npm run sync`, `npm start` and the site build, with an error that names the entry.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The class by name: to TypeScript's NodeNext, ajv's default export is its CommonJS module object.
import { Ajv } from 'ajv';
import semver from 'semver';
import { parse } from 'yaml';

/**
 * One entry of the sources file, with the defaults of its kind filled in.
 *
 * @typedef {object} Source
 * @property {string} id
 * @property {'npm' | 'git' | 'local'} kind
 * @property {string} section
 * @property {string} title
 * @property {string} [package]
 * @property {string} [repository]
 * @property {string} [tags]
 * @property {string} [versions]
 * @property {'all' | 'newest-per-minor' | 'newest-per-major'} [pick]
 * @property {string[]} [files]
 * @property {string} [pages]
 * @property {string} [path]
 * @property {Record<string, unknown>} [front_matter]
 */

/**
 * The sources file as read: its entries and the digest of its text.
 *
 * @typedef {object} LoadedSources
 * @property {string} file
 * @property {Source[]} sources
 * @property {string} hash
 */

/** What a package carries that its section shows, when its entry names nothing else. */
export const DEFAULT_FILES = ['README.md', 'LICENSE', 'CHANGELOG.md', 'CONTRIBUTING.md', 'CODE_OF_CONDUCT.md', 'docs/'];

const common = {
  id: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$', description: 'lower-case letters, digits and dashes' },
  section: {
    type: 'string',
    pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*$',
    description: 'a folder under site/docs, which is also the path under /docs/',
  },
  title: { type: 'string', minLength: 1 },
};
const fetched = {
  versions: { type: 'string', minLength: 1 },
  pick: { enum: ['all', 'newest-per-minor', 'newest-per-major'] },
  files: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[^/.][^\\\\]*$' } },
  pages: { type: 'string', minLength: 1 },
  front_matter: { type: 'object', description: 'front matter for the landing page of each version' },
};

const schema = {
  type: 'object',
  required: ['sources'],
  additionalProperties: false,
  properties: {
    sources: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'kind', 'section'],
        properties: { kind: { enum: ['npm', 'git', 'local'] } },
        oneOf: [
          {
            properties: {
              kind: { const: 'npm' },
              ...common,
              package: { type: 'string', pattern: '^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$' },
              ...fetched,
            },
            required: ['package', 'versions', 'title'],
            additionalProperties: false,
          },
          {
            properties: {
              kind: { const: 'git' },
              ...common,
              repository: { type: 'string', minLength: 1 },
              tags: { type: 'string', minLength: 1 },
              ...fetched,
            },
            required: ['repository', 'versions', 'title'],
            additionalProperties: false,
          },
          {
            properties: { kind: { const: 'local' }, ...common, path: { type: 'string', minLength: 1 } },
            required: ['path'],
            additionalProperties: false,
          },
        ],
      },
    },
  },
};

/** @type {import('ajv').ValidateFunction<{ sources: any[] }>} the entries' fields as the schema checks them */
const validate = new Ajv({ allErrors: true, verbose: true }).compile(schema);

/** A sources file that cannot be used; the message names the file, the entry and the field. */
export class SourcesError extends Error {
  name = 'SourcesError';
}

/**
 * @param {readonly { id?: unknown }[]} entries
 * @param {number} index
 */
function describeEntry(entries, index) {
  const id = entries?.[index]?.id;
  return `entry ${index + 1}${typeof id === 'string' ? ` (${id})` : ''}`;
}

/**
 * The most useful of ajv's messages for one entry: with `oneOf`, the branch of the entry's own kind.
 *
 * @param {import('ajv').ErrorObject[]} errors
 * @param {any[]} entries the file's entries as parsed, which failed the schema
 * @returns {string | undefined}
 */
function schemaMessage(errors, entries) {
  /** @type {Map<number, string>} */
  const byEntry = new Map();
  for (const error of errors) {
    const match = /^\/sources\/(\d+)(\/.*)?$/.exec(error.instancePath);
    if (!match) return error.instancePath ? `${error.instancePath} ${error.message}` : error.message;
    const index = Number(match[1]);
    const field = match[2]?.slice(1);
    const kind = entries[index]?.kind;
    const branch = /** @type {Record<string, number | undefined>} */ ({ npm: 0, git: 1, local: 2 })[kind];
    // Errors of the other kinds' branches say nothing about this entry.
    const own =
      branch === undefined
        ? !error.schemaPath.includes('/oneOf/')
        : error.schemaPath.startsWith(`#/properties/sources/items/oneOf/${branch}/`);
    if (!own || error.keyword === 'oneOf') continue;
    let text;
    if (error.keyword === 'additionalProperties')
      text = `\`${error.params.additionalProperty}\` is not a setting of a ${kind} source`;
    else if (error.keyword === 'required') text = `\`${error.params.missingProperty}\` is missing`;
    else if (error.keyword === 'enum')
      text = `\`${field ?? 'kind'}\` must be one of ${error.params.allowedValues.join(', ')}`;
    else {
      const description = error.parentSchema?.description;
      text = `\`${field}\` ${description ? `must be ${description}` : error.message}`;
    }
    if (!byEntry.has(index)) byEntry.set(index, text);
  }
  const [first] = byEntry;
  return first ? `${describeEntry(entries, first[0])}: ${first[1]}` : 'it does not match the sources format';
}

/**
 * Reads and checks the sources file. `siteDir` is where `section`, `path` and `pages`
 * are resolved from. Throws a SourcesError naming the bad entry.
 *
 * @param {string} file
 * @param {{ siteDir: string }} options
 * @returns {LoadedSources}
 */
export function loadSources(file, { siteDir }) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (/** @type {any} */ error) {
    throw new SourcesError(`The sources file ${file} cannot be read: ${error.message}`);
  }
  let data;
  try {
    data = parse(text);
  } catch (/** @type {any} */ error) {
    throw new SourcesError(`The sources file ${file} is not valid YAML: ${error.message}`);
  }
  if (!validate(data))
    throw new SourcesError(`The sources file ${file}: ${schemaMessage(validate.errors ?? [], data?.sources ?? [])}`);

  const seen = { id: new Map(), section: new Map() };
  const sources = data.sources.map((entry, index) => {
    const where = `The sources file ${file}: ${describeEntry(data.sources, index)}`;
    for (const key of /** @type {const} */ (['id', 'section'])) {
      const other = seen[key].get(entry[key]);
      if (other !== undefined)
        throw new SourcesError(`${where}: \`${key}\` ${entry[key]} is already used by entry ${other + 1}`);
      seen[key].set(entry[key], index);
    }
    if (entry.kind === 'local') {
      const dir = join(siteDir, entry.path);
      if (!existsSync(dir) || !statSync(dir).isDirectory())
        throw new SourcesError(`${where}: \`path\` ${entry.path} is not a folder of site/`);
      return { ...entry, title: entry.title ?? entry.section };
    }
    if (!semver.validRange(entry.versions))
      throw new SourcesError(`${where}: \`versions\` ${JSON.stringify(entry.versions)} is not a semver range`);
    if (entry.pages !== undefined) {
      const dir = join(siteDir, entry.pages);
      if (!existsSync(dir) || !statSync(dir).isDirectory())
        throw new SourcesError(`${where}: \`pages\` ${entry.pages} is not a folder of site/`);
    }
    return { pick: 'newest-per-minor', files: DEFAULT_FILES, tags: 'v*', ...entry };
  });
  return { file, sources, hash: createHash('sha256').update(text).digest('hex') };
}

/**
 * The versions of a release list that a source publishes: those in its range, then the
 * newest of each minor (or major) line, newest first.
 *
 * @param {string[]} versions
 * @param {{ versions: string, pick: 'all' | 'newest-per-minor' | 'newest-per-major' }} source
 */
export function pickVersions(versions, source) {
  const inRange = versions.filter((version) => semver.valid(version) && semver.satisfies(version, source.versions));
  const sorted = semver.rsort([...inRange]);
  if (source.pick === 'all') return sorted;
  const lines = new Set();
  return sorted.filter((version) => {
    const line =
      source.pick === 'newest-per-major'
        ? `${semver.major(version)}`
        : `${semver.major(version)}.${semver.minor(version)}`;
    if (lines.has(line)) return false;
    lines.add(line);
    return true;
  });
}
