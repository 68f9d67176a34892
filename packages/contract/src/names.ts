/**
 * The names the server and the site must agree on, with no dependencies, so the site's
 * bundles can import them without the schemas.
 */

/** The session cookie: Firebase Hosting forwards only a cookie of this name. */
export const SESSION_COOKIE = '__session';

/**
 * The reader's groups joined by `.`, readable by the page's scripts so that the first paint
 * already shows each reader only what they may open. A hint only: the gate decides.
 */
export const GROUPS_HINT_COOKIE = 'portal_groups';

/**
 * The access units the reader holds, joined by `.`, beside the groups hint: the first paint
 * hides what the reader may not open by these, and the search box loads their bundles. A
 * hint only: the gate decides.
 */
export const UNITS_HINT_COOKIE = 'portal_units';

/** Both cookies are set for the whole site. */
export const COOKIE_PATH = '/';

/** Every personal access token starts so, for secret scanners to find a leaked one. */
export const TOKEN_PREFIX = 'norigin_pat_';

/** A whole token: the prefix and 32 random bytes in base64url. */
export const TOKEN_PATTERN = /^norigin_pat_[A-Za-z0-9_-]{43}$/;

/** The access policy's rule for a group name; nothing else becomes a CSS class or a claim. */
export const GROUP_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** The most groups an account, a session answer or an administrator's change may name. */
export const MAX_GROUPS = 16;

/** The access policy's rule for a unit name; nothing else becomes a CSS class, a folder or a cookie value. */
export const UNIT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,47}$/;

/** The most units a session answer or its hint may name. */
export const MAX_UNITS = 256;

/** The longest life of a personal access token, in days. */
export const MAX_TOKEN_DAYS = 90;

/** Where the next page of the audit trail goes on from (an answer's `next`): a time in ms and an event's id (`v` and the id for a page view). */
export const AUDIT_CURSOR_PATTERN = '^[0-9]{1,15}[.]v?[0-9]{1,19}$';

/** Where a page of the administrators' token list goes on from: the last token's creation (ms) and id. */
export const TOKEN_CURSOR_PATTERN = '^[0-9]{1,15}[.][A-Za-z0-9-]{1,64}$';

/** The columns of a CSV of readers' memberships, in order (import and export). */
export const MEMBERSHIP_CSV_COLUMNS = ['email', 'organisation', 'groups'] as const;

/** The most rows (besides the header) one import of readers takes. */
export const MAX_IMPORT_ROWS = 10_000;

/** The most cells a row of an import may have (it needs three; a few more are refused row by row). */
export const MAX_IMPORT_CELLS = 10;

/** The longest cell of an import, in characters (an e-mail is at most 254; sixteen groups fit). */
export const MAX_IMPORT_CELL_CHARS = 1000;

/** The largest CSV file one import takes, in bytes (10,000 rows of long addresses and many groups fit). */
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;

/** What a personal access token may be used for: agent surfaces (`read`) or the administration API (`admin`). */
export const TOKEN_SCOPES = ['read', 'admin'] as const;

/**
 * A name in the possessive, as the portal writes it everywhere: "Northwind’s licence", and
 * "Halcyon Streams’ licence" for a name that ends in s.
 */
export const possessive = (name: string): string => (/s$/i.test(name) ? `${name}’` : `${name}’s`);

/**
 * Why a changed symbol comes first in a reader's "what's new": "you read `setFocus`; 3.2.1
 * changed its signature" (`code` sets the name as code: backticks in Markdown, nothing on the
 * page). Null for a symbol the reader does not use.
 */
export function symbolUseNote(
  symbol: { name: string; kind: string; change: 'removed' | 'changed' | 'added'; use: 'read' | 'named' | null },
  version: string,
  code: (name: string) => string = (name) => name,
): string | null {
  if (symbol.use === null) return null;
  const how = symbol.use === 'read' ? 'you read' : 'a page you read names';
  const what =
    symbol.change === 'removed'
      ? 'removed it'
      : symbol.change === 'added'
        ? 'added it'
        : symbol.kind === 'function' || symbol.kind === 'hook'
          ? 'changed its signature'
          : 'changed its declaration';
  return `${how} ${code(symbol.name)}; ${version} ${what}`;
}
