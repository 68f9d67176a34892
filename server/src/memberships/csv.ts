import { setImmediate as nextTurn } from 'node:timers/promises';

import { CsvError, parse } from 'csv-parse';

import {
  MAX_GROUPS,
  MAX_IMPORT_CELL_CHARS,
  MAX_IMPORT_CELLS,
  MAX_IMPORT_ROWS,
  MEMBERSHIP_CSV_COLUMNS,
} from '@portal/contract/names';
import type { ImportChange, ImportRefusal, ImportReport } from '@portal/contract';

import { cellBeforeNeutralising, spreadsheetCsv } from '../spreadsheet-csv.js';

/** The whole file is refused (not text, no header, a quote left open, a limit passed): nothing changes. */
export class CsvFileError extends Error {}

/** A row of the file: its line (the header is line 1) and its cells, trimmed. */
export interface CsvRow {
  line: number;
  cells: string[];
}

/** A reader's membership as the import compares it: organisation id (or null) and groups. */
export interface Placement {
  organisationId: string | null;
  groups: readonly string[];
}

/** What the import checks a file against: the data as it is, and the policy's own group names. */
export interface ImportState {
  organisations: ReadonlySet<string>;
  groups: ReadonlySet<string>;
  policyGroups: ReadonlySet<string>;
  memberships: ReadonlyMap<string, Placement>;
}

/** What a file would do: a change per accepted row, a reason per refused one. */
export interface ImportPlan {
  rows: number;
  changes: ImportChange[];
  refused: ImportRefusal[];
  counts: ImportReport['counts'];
  /** What to write for each row that changes something: the reader's placement, or null to remove it. */
  writes: { email: string; placement: Placement | null }[];
}

const HEADER = MEMBERSHIP_CSV_COLUMNS.join(',');
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const count = (n: number): string => n.toLocaleString('en');

/** How much of the file the parser takes between two turns of the event loop, in bytes. */
const SLICE_BYTES = 1024;

/**
 * What the parser may hold of one row before it gives up: more than any row within the limits
 * (its cells counted in characters, the cell being read in bytes, four at most to a character).
 */
const ROW_BUFFER = 4 * (MAX_IMPORT_CELLS + 1) * MAX_IMPORT_CELL_CHARS;

const tooManyCells = (line: number): string =>
  `Line ${line} has more than ${MAX_IMPORT_CELLS} cells; a row has ${MEMBERSHIP_CSV_COLUMNS.length}: ${HEADER}`;
const cellTooLong = (line: number): string =>
  `Line ${line}: a cell is longer than ${count(MAX_IMPORT_CELL_CHARS)} characters`;

/** Words for the CSV parser's refusals that a person can act on. */
function parserMessage(error: CsvError): string {
  const { lines: line, index } = error as CsvError & { lines?: number; index?: number };
  const at = line ? `Line ${line}: ` : '';
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `${at}a quoted value is never closed (a " is missing)`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `${at}a quoted value goes on after its closing quote`;
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return `${at}text follows a closing quote`;
    case 'CSV_MAX_RECORD_SIZE':
      // Past the last cell allowed, the parser keeps the rest of the row as one cell (ignore_last_delimiters).
      return (index ?? 0) >= MAX_IMPORT_CELLS ? tooManyCells(line ?? 0) : cellTooLong(line ?? 0);
    default:
      return `${at}${error.message}`;
  }
}

/** Checks the first row against the header; throws CsvFileError with what it reads instead. */
function checkHeader(cells: readonly string[]): void {
  const names = cells.map((cell) => cell.toLowerCase());
  if (names.length === 1 && /[;\t|]/.test(names[0] ?? ''))
    throw new CsvFileError(`Separate the columns with commas: the header must read ${HEADER}`);
  if (names.join(',') !== HEADER)
    throw new CsvFileError(`The first line must be the header ${HEADER} (it reads "${cells.join(',').slice(0, 80)}")`);
}

/**
 * Reads a CSV of readers' memberships (`email,organisation,groups`, a header first) into
 * rows, with a kept parser (csv-parse) fed a slice at a time, so a large file never holds up
 * other requests. A file that is not CSV text, lacks the header or passes a limit (rows,
 * cells of a row, characters of a cell) is refused as a whole, at the line where it does;
 * a row with the wrong number of cells is kept, for `planImport` to refuse alone. A leading '
 * that `membershipCsv` put before a formula character is dropped, so an export reads back.
 */
export async function readMembershipCsv(text: string): Promise<CsvRow[]> {
  const body = text.replace(/^\uFEFF/, '');
  // NUL bytes or characters that were not UTF-8: a spreadsheet's binary file, an image, a zip.
  if (body.includes('\u0000') || body.includes('\uFFFD'))
    throw new CsvFileError('The file is not CSV text (UTF-8); save it as CSV and try again');
  if (body.trim() === '') throw new CsvFileError(`The file is empty; its first line must be the header ${HEADER}`);
  const rows: CsvRow[] = [];
  let header = true;
  const parser = parse({
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    // A row's cells past the limit stay one last cell, which the row buffer below bounds.
    ignore_last_delimiters: MAX_IMPORT_CELLS + 1,
    max_record_size: ROW_BUFFER,
    on_record: (cells: string[], { lines: line }: { lines: number }) => {
      if (header) {
        header = false;
        checkHeader(cells);
        return null;
      }
      if (cells.length > MAX_IMPORT_CELLS) throw new CsvFileError(tooManyCells(line));
      if (cells.some((cell) => cell.length > MAX_IMPORT_CELL_CHARS)) throw new CsvFileError(cellTooLong(line));
      if (rows.length === MAX_IMPORT_ROWS)
        throw new CsvFileError(
          `The file has more than ${count(MAX_IMPORT_ROWS)} rows (line ${line} is row ${count(MAX_IMPORT_ROWS + 1)}); one import takes at most ${count(MAX_IMPORT_ROWS)}: split it`,
        );
      rows.push({ line, cells: cells.map(cellBeforeNeutralising) });
      return null;
    },
  });
  let failure: unknown = null;
  const done = new Promise<void>((resolve) => {
    parser.on('error', (error) => {
      failure = error;
      resolve();
    });
    parser.on('end', resolve);
  });
  // Rows are collected by on_record; nothing is read from the stream but its end.
  parser.resume();
  const bytes = Buffer.from(body, 'utf8');
  for (let at = 0; at < bytes.length && failure === null; at += SLICE_BYTES) {
    parser.write(bytes.subarray(at, at + SLICE_BYTES));
    await nextTurn();
  }
  if (failure === null) parser.end();
  await done;
  if (failure instanceof CsvFileError) throw failure;
  if (failure instanceof CsvError) throw new CsvFileError(parserMessage(failure));
  if (failure !== null) throw failure;
  return rows;
}

const quoted = (names: readonly string[]): string => names.map((name) => `"${name}"`).join(', ');

/**
 * What importing `rows` would do to the memberships in `state`: each row sets its reader's
 * organisation (empty: by their e-mail's domain) and groups to exactly what it says; readers
 * the file does not name keep theirs. A row is refused with its reason (bad e-mail, the same
 * e-mail again, an unknown organisation or group, a group of the policy, the wrong number of
 * columns); nothing of it is applied then.
 */
export function planImport(rows: readonly CsvRow[], state: ImportState): ImportPlan {
  const changes: ImportChange[] = [];
  const refused: ImportRefusal[] = [];
  const writes: ImportPlan['writes'] = [];
  const seen = new Map<string, number>();
  for (const { line, cells } of rows) {
    const email = (cells[0] ?? '').toLowerCase();
    const refuse = (reason: string) => refused.push({ line, email: email === '' ? null : email, reason });
    if (cells.length !== MEMBERSHIP_CSV_COLUMNS.length) {
      refuse(
        `${cells.length > MEMBERSHIP_CSV_COLUMNS.length ? 'too many' : 'too few'} columns (${cells.length}; the header has ${MEMBERSHIP_CSV_COLUMNS.length}: ${HEADER})`,
      );
      continue;
    }
    if (email === '') {
      refuse('no e-mail address');
      continue;
    }
    if (email.length > 254 || !EMAIL.test(email)) {
      refuse(`"${cells[0]}" is not an e-mail address`);
      continue;
    }
    const earlier = seen.get(email);
    if (earlier !== undefined) {
      refuse(`the same e-mail as line ${earlier}: one row per reader`);
      continue;
    }
    seen.set(email, line);
    const organisation = (cells[1] ?? '').toLowerCase();
    if (organisation !== '' && !state.organisations.has(organisation)) {
      refuse(`no organisation "${cells[1]}" (use an organisation's id, as the export writes it)`);
      continue;
    }
    const groups = [
      ...new Set(
        (cells[2] ?? '')
          .toLowerCase()
          .split(/[\s;]+/)
          .filter(Boolean),
      ),
    ].sort();
    const ofPolicy = groups.filter((group) => state.policyGroups.has(group));
    if (ofPolicy.length > 0) {
      refuse(`${quoted(ofPolicy)}: a group of the access policy, given with "npm run readers -- grant", not here`);
      continue;
    }
    const unknown = groups.filter((group) => !state.groups.has(group));
    if (unknown.length > 0) {
      refuse(`no group ${quoted(unknown)}`);
      continue;
    }
    if (groups.length > MAX_GROUPS) {
      refuse(`${groups.length} groups; a reader may be in at most ${MAX_GROUPS}`);
      continue;
    }
    const before = state.memberships.get(email);
    const after: Placement = { organisationId: organisation === '' ? null : organisation, groups };
    const beforeGroups = new Set(before?.groups ?? []);
    const groupsAdded = groups.filter((group) => !beforeGroups.has(group));
    const groupsRemoved = [...beforeGroups].filter((group) => !groups.includes(group)).sort();
    const empty = after.organisationId === null && groups.length === 0;
    const organisationBefore = before?.organisationId ?? null;
    const change: ImportChange['change'] =
      before === undefined
        ? empty
          ? 'unchanged'
          : 'new'
        : empty
          ? 'removed'
          : organisationBefore !== after.organisationId
            ? 'moved'
            : groupsAdded.length + groupsRemoved.length > 0
              ? 'groups'
              : 'unchanged';
    changes.push({
      line,
      email,
      change,
      organisation: { before: organisationBefore, after: after.organisationId },
      groupsAdded,
      groupsRemoved,
    });
    if (change !== 'unchanged') writes.push({ email, placement: change === 'removed' ? null : after });
  }
  const counts = { new: 0, moved: 0, groups: 0, removed: 0, unchanged: 0, refused: refused.length };
  for (const change of changes) counts[change.change] += 1;
  return { rows: rows.length, changes, refused, counts, writes };
}

/**
 * Memberships as a CSV that `readMembershipCsv` reads back: the same columns, groups separated
 * by spaces, a cell that starts like a formula neutralised as the audit export does.
 */
export function membershipCsv(memberships: readonly (Placement & { email: string })[]): string {
  return spreadsheetCsv(
    MEMBERSHIP_CSV_COLUMNS,
    memberships.map((membership) => [membership.email, membership.organisationId ?? '', membership.groups.join(' ')]),
  );
}
