// The readers command's `import` and `export`: they call the running portal's administration
// API (the routes the organisations page calls, one code path), with an administrator's
// personal token of the `admin` scope, so the change is made, checked, audited and made live
// on every replica by the portal itself, whatever database it runs on.
import { readFile } from 'node:fs/promises';

import type { ImportReport } from '@portal/contract';

/** Where the command writes: the terminal, or a test's buffers. */
interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** A refusal the administrator can fix (exit 2), or a portal that did not answer (exit 1). */
export class ApiCommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/** The running portal the command talks to: PORTAL_URL, else http://localhost:$PORT (3000), without a trailing slash. */
export const portalUrlOf = (env: NodeJS.ProcessEnv): string =>
  (env.PORTAL_URL?.trim() || `http://localhost:${env.PORT?.trim() || '3000'}`).replace(/\/+$/, '');

function portalOf(env: NodeJS.ProcessEnv): { url: string; token: string } {
  const token = env.PORTAL_TOKEN?.trim();
  if (!token)
    throw new ApiCommandError(
      'set PORTAL_TOKEN to a personal token of the admin scope (an administrator makes one on /account: "Used for: Automation")',
      2,
    );
  return { url: portalUrlOf(env), token };
}

async function call(env: NodeJS.ProcessEnv, path: string, init: RequestInit = {}): Promise<Response> {
  const { url, token } = portalOf(env);
  try {
    return await fetch(`${url}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    throw new ApiCommandError(
      `cannot reach the portal at ${url} (${(error as Error).message}); start it, or set PORTAL_URL`,
      1,
    );
  }
}

async function refusal(response: Response): Promise<ApiCommandError> {
  const body = (await response.json().catch(() => null)) as { error?: string } | null;
  return new ApiCommandError(
    `the portal answered ${response.status}: ${body?.error ?? response.statusText}`,
    response.status >= 500 ? 1 : 2,
  );
}

/** The report as lines: the counts, each refused row and each row that changes something. */
export function reportLines(report: ImportReport): string[] {
  const { counts } = report;
  const lines = [
    `${report.applied ? 'Imported' : 'Preview (nothing changed)'}: ${report.rows} row(s): ${counts.new} new, ${counts.moved} moved, ${counts.groups} with other groups, ${counts.removed} removed, ${counts.unchanged} unchanged, ${counts.refused} refused.`,
  ];
  for (const row of report.refused) lines.push(`  line ${row.line}: refused: ${row.reason}`);
  for (const change of report.changes) {
    if (change.change === 'unchanged') continue;
    const groups = [
      ...change.groupsAdded.map((group) => `+${group}`),
      ...change.groupsRemoved.map((group) => `-${group}`),
    ].join(' ');
    const place = `${change.organisation.before ?? '-'} → ${change.organisation.after ?? '-'}`;
    lines.push(
      `  line ${change.line}: ${change.email}: ${change.change} (organisation ${place}${groups ? `, groups ${groups}` : ''})`,
    );
  }
  if (!report.applied && report.refused.length === 0 && report.rows > 0)
    lines.push('Run it again with --apply to make these changes.');
  if (report.refused.length > 0)
    lines.push('Nothing is imported while a row is refused: correct the file and run it again.');
  return lines;
}

/** `import FILE [--apply]`: the preview (or the import) of a CSV of memberships; exit 2 when a row is refused. */
export async function importCommand(
  file: string,
  apply: boolean,
  env: NodeJS.ProcessEnv,
  io: Output,
  json: boolean,
): Promise<number> {
  let csv: string;
  try {
    csv = await readFile(file, 'utf8');
  } catch (error) {
    throw new ApiCommandError(`cannot read ${file}: ${(error as Error).message}`, 2);
  }
  const response = await call(env, `/api/admin/readers/import${apply ? '?apply=true' : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: csv,
  });
  if (response.status !== 200 && response.status !== 422) throw await refusal(response);
  const report = (await response.json()) as ImportReport;
  if (json) io.out(JSON.stringify(report, null, 2));
  else reportLines(report).forEach((line) => io.out(line));
  return report.refused.length > 0 ? 2 : 0;
}

/** `export`: every membership as CSV, on standard output. */
export async function exportCommand(env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  const response = await call(env, '/api/admin/readers/export');
  if (response.status !== 200) throw await refusal(response);
  io.out((await response.text()).trimEnd());
  return 0;
}
