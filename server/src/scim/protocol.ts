/**
 * SCIM 2.0 (RFC 7643, RFC 7644) as the portal speaks it to a partner's directory: the
 * resources' shapes, the errors, the one filter form clients use (`attribute eq "value"`)
 * and PATCH as Okta and Microsoft Entra send it. Pure: no database, no identity service.
 */
import { EMAIL_PATTERN } from '../auth/readers.js';

export const SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** SCIM's media type (RFC 7644 §3.1); plain JSON is accepted too. */
export const SCIM_MEDIA_TYPE = 'application/scim+json';

/** RFC 7644 §3.12's `scimType` values the portal uses. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue';

/** A refusal in SCIM's own shape: the status, its `scimType` when one fits, and a detail that says what to change. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

export function errorBody(status: number, detail: string, scimType?: ScimType): Record<string, unknown> {
  return { schemas: [SCHEMAS.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

/** What the portal keeps of a SCIM User. The e-mail is the reader's account; `userName` is unique in the organisation. */
export interface ScimUserInput {
  userName: string;
  email: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  active: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Attribute names are case-insensitive in SCIM (RFC 7643 §2.1): the object's own keys by lower-case name. */
function lowerKeys(object: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(object).map(([key, value]) => [key.toLowerCase(), value]));
}

function text(value: unknown, attribute: string, { required = false, max = 256 } = {}): string | null {
  if (value === undefined || value === null) {
    if (required) throw new ScimError(400, `"${attribute}" is required`, 'invalidValue');
    return null;
  }
  if (typeof value !== 'string') throw new ScimError(400, `"${attribute}" must be a string`, 'invalidValue');
  const trimmed = value.trim();
  if (trimmed.length > max) throw new ScimError(400, `"${attribute}" is longer than ${max} characters`, 'invalidValue');
  if (trimmed === '') {
    if (required) throw new ScimError(400, `"${attribute}" is required`, 'invalidValue');
    return null;
  }
  return trimmed;
}

/** A boolean, or Entra's "True"/"False" strings. */
function flag(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new ScimError(400, `"${attribute}" must be true or false`, 'invalidValue');
}

/** The primary e-mail of an `emails` value, else its first, else null. */
function emailOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new ScimError(400, '"emails" must be a list', 'invalidValue');
  const entries = value.map((entry) => {
    if (!isObject(entry)) throw new ScimError(400, 'each of "emails" must be an object with a "value"', 'invalidValue');
    return lowerKeys(entry);
  });
  const chosen =
    entries.find((entry) => {
      const primary = entry.get('primary');
      return primary === true || (typeof primary === 'string' && primary.toLowerCase() === 'true');
    }) ?? entries[0];
  return chosen === undefined ? null : text(chosen.get('value'), 'emails.value');
}

function checkedEmail(email: string): string {
  const address = email.toLowerCase();
  if (!EMAIL_PATTERN.test(address))
    throw new ScimError(400, `"${email}" is not an e-mail address: give one as userName or in emails`, 'invalidValue');
  return address;
}

/** A whole User (POST, PUT) read into what the portal keeps; anything else of the core schema is ignored. */
export function readUser(body: unknown): ScimUserInput {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM User object', 'invalidSyntax');
  const fields = lowerKeys(body);
  const schemas = fields.get('schemas');
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.includes(SCHEMAS.user)))
    throw new ScimError(400, `"schemas" must include ${SCHEMAS.user}`, 'invalidSyntax');
  const userName = text(fields.get('username'), 'userName', { required: true }) as string;
  const name = fields.get('name');
  if (name !== undefined && name !== null && !isObject(name))
    throw new ScimError(400, '"name" must be an object', 'invalidValue');
  const names = isObject(name) ? lowerKeys(name) : new Map<string, unknown>();
  const active = fields.get('active');
  return {
    userName,
    email: checkedEmail(emailOf(fields.get('emails')) ?? userName),
    externalId: text(fields.get('externalid'), 'externalId'),
    givenName: text(names.get('givenname'), 'name.givenName'),
    familyName: text(names.get('familyname'), 'name.familyName'),
    displayName: text(fields.get('displayname'), 'displayName'),
    active: active === undefined || active === null ? true : flag(active, 'active'),
  };
}

/** Attributes of the core and enterprise User schemas the portal does not keep: a PATCH of them changes nothing. */
const IGNORED_USER_ATTRIBUTES =
  /^(title|nickname|profileurl|usertype|preferredlanguage|locale|timezone|password|addresses|phonenumbers|ims|photos|roles|entitlements|x509certificates|name\.(formatted|middlename|honorificprefix|honorificsuffix)|urn:ietf:params:scim:schemas:extension:enterprise:2\.0:user)([.:[].*)?$/i;

/** An e-mail path Entra and Okta send: `emails`, `emails[type eq "work"].value`, `emails[primary eq true].value`. */
const EMAIL_PATH = /^emails(\[\s*(type|primary)\s+eq\s+("[^"]*"|true)\s*\])?(\.value)?$/i;

/** One PATCH operation on a User (RFC 7644 §3.5.2), applied to `user`. */
function patchUserAttribute(user: ScimUserInput, op: 'add' | 'replace' | 'remove', path: string, value: unknown): void {
  const key = path.trim();
  const lower = key.toLowerCase();
  const remove = op === 'remove';
  if (EMAIL_PATH.test(key)) {
    if (remove) throw new ScimError(400, 'A reader keeps an e-mail address: it cannot be removed', 'mutability');
    const address = lower.endsWith('.value') || typeof value === 'string' ? text(value, key) : emailOf(value);
    if (address === null) throw new ScimError(400, `"${key}" needs an e-mail address`, 'invalidValue');
    user.email = checkedEmail(address);
    return;
  }
  switch (lower) {
    case 'active':
      if (remove) throw new ScimError(400, '"active" cannot be removed; set it to false', 'mutability');
      user.active = flag(value, 'active');
      return;
    case 'username':
      if (remove) throw new ScimError(400, '"userName" is required: it cannot be removed', 'mutability');
      user.userName = text(value, 'userName', { required: true }) as string;
      return;
    case 'externalid':
      user.externalId = remove ? null : text(value, 'externalId');
      return;
    case 'displayname':
      user.displayName = remove ? null : text(value, 'displayName');
      return;
    case 'name.givenname':
      user.givenName = remove ? null : text(value, 'name.givenName');
      return;
    case 'name.familyname':
      user.familyName = remove ? null : text(value, 'name.familyName');
      return;
    case 'name': {
      if (remove) {
        user.givenName = null;
        user.familyName = null;
        return;
      }
      if (!isObject(value)) throw new ScimError(400, '"name" must be an object', 'invalidValue');
      for (const [attribute, part] of Object.entries(value)) patchUserAttribute(user, op, `name.${attribute}`, part);
      return;
    }
    default:
      if (IGNORED_USER_ATTRIBUTES.test(key) || lower === 'schemas' || lower === 'id' || lower === 'meta') return;
      throw new ScimError(400, `"${key}" is not an attribute of a User here`, 'invalidPath');
  }
}

interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string | null;
  value: unknown;
}

/** The operations of a PatchOp body, with `op` in lower case (Entra writes "Replace"). */
export function readPatch(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM PatchOp object', 'invalidSyntax');
  const fields = lowerKeys(body);
  const schemas = fields.get('schemas');
  if (!Array.isArray(schemas) || !schemas.includes(SCHEMAS.patch))
    throw new ScimError(400, `"schemas" must be [${SCHEMAS.patch}]`, 'invalidSyntax');
  const operations = fields.get('operations');
  if (!Array.isArray(operations) || operations.length === 0)
    throw new ScimError(400, '"Operations" must be a list of at least one operation', 'invalidSyntax');
  if (operations.length > 1000) throw new ScimError(400, 'At most 1,000 operations in one PATCH', 'tooMany');
  return operations.map((operation, index) => {
    if (!isObject(operation)) throw new ScimError(400, `Operation ${index + 1} must be an object`, 'invalidSyntax');
    const entry = lowerKeys(operation);
    const op = typeof entry.get('op') === 'string' ? (entry.get('op') as string).toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw new ScimError(400, `Operation ${index + 1}: "op" must be add, replace or remove`, 'invalidSyntax');
    const path = entry.get('path');
    if (path !== undefined && path !== null && (typeof path !== 'string' || path.trim() === ''))
      throw new ScimError(400, `Operation ${index + 1}: "path" must be a non-empty string`, 'invalidPath');
    if (op === 'remove' && (path === undefined || path === null))
      throw new ScimError(400, `Operation ${index + 1}: a remove needs a "path"`, 'noTarget');
    return { op, path: (path as string | undefined) ?? null, value: entry.get('value') };
  });
}

/** A User after a PATCH: every operation applies, or none (the first that does not fit throws). */
export function patchUser(current: ScimUserInput, body: unknown): ScimUserInput {
  const user = { ...current };
  for (const { op, path, value } of readPatch(body)) {
    if (path !== null) patchUserAttribute(user, op, path, value);
    else {
      if (!isObject(value))
        throw new ScimError(400, 'An operation without a "path" needs an object as its "value"', 'invalidValue');
      for (const [attribute, part] of Object.entries(value)) patchUserAttribute(user, op, attribute, part);
    }
  }
  return user;
}

/** What a PATCH of a Group does to its members, in order; a new displayName is refused (groups are named here). */
export type GroupChange = { kind: 'add' | 'remove'; members: string[] } | { kind: 'replace'; members: string[] };

const MEMBER_FILTER = /^members\s*\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i;

function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.map((member) => {
    const id = isObject(member) ? lowerKeys(member).get('value') : undefined;
    if (typeof id !== 'string' || id === '')
      throw new ScimError(400, 'Each member must be an object with the "value" of a User id', 'invalidValue');
    return id;
  });
}

export function patchGroup(body: unknown, displayName: string): GroupChange[] {
  const changes: GroupChange[] = [];
  const rename = (value: unknown): void => {
    if (typeof value === 'string' && value.trim() !== displayName)
      throw new ScimError(400, `A group's name is the portal's ("${displayName}"): it cannot be renamed`, 'mutability');
  };
  for (const { op, path, value } of readPatch(body)) {
    if (path === null) {
      if (!isObject(value))
        throw new ScimError(400, 'An operation without a "path" needs an object as its "value"', 'invalidValue');
      const fields = lowerKeys(value);
      rename(fields.get('displayname'));
      if (fields.has('members'))
        changes.push({ kind: op === 'remove' ? 'remove' : op, members: memberIds(fields.get('members')) });
      continue;
    }
    const one = MEMBER_FILTER.exec(path.trim());
    if (one?.[1] !== undefined) {
      if (op !== 'remove') throw new ScimError(400, `"${path}" can only be removed`, 'invalidPath');
      changes.push({ kind: 'remove', members: [one[1]] });
    } else if (path.trim().toLowerCase() === 'members') {
      changes.push({ kind: op === 'remove' && value === undefined ? 'replace' : op, members: memberIds(value) });
    } else if (path.trim().toLowerCase() === 'displayname') rename(value);
    else if (path.trim().toLowerCase() !== 'externalid')
      throw new ScimError(400, `"${path}" is not an attribute of a Group here`, 'invalidPath');
  }
  return changes;
}

/** A filter's one comparison: `attribute eq "value"` (what Okta and Entra send), with the attribute's lower-case name. */
export function readFilter(filter: string, attributes: readonly string[]): { attribute: string; value: string } {
  const match = /^\s*([A-Za-z][\w.]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  if (!match?.[1] || match[2] === undefined)
    throw new ScimError(
      400,
      `Only filters of the form attribute eq "value" are supported (got ${filter})`,
      'invalidFilter',
    );
  const attribute = match[1].toLowerCase();
  if (!attributes.includes(attribute))
    throw new ScimError(
      400,
      `Filtering by ${match[1]} is not supported; filter by ${attributes.join(', ')}`,
      'invalidFilter',
    );
  try {
    return { attribute, value: JSON.parse(`"${match[2]}"`) as string };
  } catch {
    // An escape JSON does not know (`\q`, a short `\u`) or a bare control character: the client's to fix.
    throw new ScimError(
      400,
      `The value in ${filter} is not a valid quoted string: escape a quote as \\" and a backslash as \\\\`,
      'invalidFilter',
    );
  }
}

/** A list's page (RFC 7644 §3.4.2.4): `startIndex` from 1, `count` from 0 up to `max`. */
export function readPage(query: { startIndex?: string; count?: string }, max = 200): { start: number; count: number } {
  const number = (value: string | undefined, fallback: number, name: string, least: number): number => {
    if (value === undefined || value === '') return fallback;
    if (!/^\d+$/.test(value)) throw new ScimError(400, `"${name}" must be a whole number`, 'invalidValue');
    return Math.max(Number(value), least);
  };
  return {
    start: number(query.startIndex, 1, 'startIndex', 1),
    count: Math.min(number(query.count, 100, 'count', 0), max),
  };
}

export function listResponse(resources: unknown[], total: number, start: number): Record<string, unknown> {
  return {
    schemas: [SCHEMAS.list],
    totalResults: total,
    startIndex: start,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
