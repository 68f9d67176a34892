import { stringify } from 'csv-stringify/sync';

/*
 * CSV the portal hands out (the audit trail, readers' memberships), made safe to open in a
 * spreadsheet, and the way back for a file the portal reads in again.
 */

/** The first characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection list). */
const FORMULA_START = /^'[=+\-@\t\r]/;

/**
 * Rows as CSV with a header. A cell that starts like a formula (=, +, -, @, tab, CR) gets a
 * leading ' (OWASP's CSV injection advice): an e-mail or page name is never run by the
 * spreadsheet that opens it.
 */
export function spreadsheetCsv(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return stringify(rows as unknown[][], { header: true, columns: [...columns], escape_formulas: true });
}

/** A cell as it was before `spreadsheetCsv` neutralised it: the leading ' it put before a formula character dropped. */
export const cellBeforeNeutralising = (cell: string): string => (FORMULA_START.test(cell) ? cell.slice(1) : cell);
