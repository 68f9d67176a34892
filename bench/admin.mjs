// The administration page's list of readers with many readers: how long a page of 50
// takes from 10,000 readers in 100 organisations (the readers in the Auth Emulator, the
// gate keeping an index of them in memory, loaded once from the identity service; the
// organisations, one per e-mail domain, with a licence each, in the database). The readers
// page asks for both at once, so a load is timed as the two requests side by side. p50/p95
// over searches, filters and pages an administrator would ask for, after the first (cold)
// load that fills the index.
import { signInWithPassword, startSession } from '../scripts/portal-client.mjs';
import { emulatorRequest, seedReaders } from '../tools/lib/emulator.mjs';
import { median, percentile } from './lib.mjs';

/** How many organisations the readers belong to: one per e-mail domain `studio-<n>.example`. */
export const ORGANISATIONS = 100;

/** Adds `count` readers to the emulator in batches of 1,000 (the identity service's own import). */
export async function addReaders(emulator, count) {
  const groups = ['partner', 'staff', 'partner', 'admin'];
  for (let start = 0; start < count; start += 1000) {
    const users = Array.from({ length: Math.min(1000, count - start) }, (_, index) => {
      const n = start + index;
      return {
        localId: `bench-${n}`,
        email: `reader-${String(n).padStart(5, '0')}@studio-${n % ORGANISATIONS}.example`,
        emailVerified: n % 5 !== 0,
        disabled: n % 41 === 0,
        customAttributes: JSON.stringify({ groups: n % 7 === 0 ? [] : [groups[n % groups.length]] }),
        createdAt: String(Date.now() - n * 60_000),
        lastLoginAt: String(Date.now() - n * 30_000),
      };
    });
    await emulatorRequest(emulator.host, emulator.projectId, '/accounts:batchCreate', { users });
  }
}

/** A JSON POST to a gate's admin API as the administrator of `cookie`; anything but 201 stops the run. */
async function adminPost(baseURL, cookie, url, body) {
  const response = await fetch(`${baseURL}${url}`, {
    method: 'POST',
    headers: { cookie, origin: baseURL, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
}

/** An organisation with one domain and one licence, made through a gate's admin API. */
async function addOrganisation({ baseURL, cookie, id, name, units }) {
  await adminPost(baseURL, cookie, '/api/admin/organisations', { id, name, domains: [`${id}.example`] });
  await adminPost(baseURL, cookie, `/api/admin/organisations/${id}/licences`, { units });
}

/** The organisations the readers' domains belong to, each licensed for a third of the units. */
export async function addOrganisations({ baseURL, cookie, units }) {
  for (let n = 0; n < ORGANISATIONS; n++)
    await addOrganisation({
      baseURL,
      cookie,
      id: `studio-${n}`,
      name: `Studio ${n}`,
      units: units.filter((_, index) => (index + n) % 3 === 0),
    });
}

/**
 * A partner's developer whose organisation is licensed for `units` (and who is in no group),
 * signed in: the reader issue 30's goals are set for. The organisation is made on each gate
 * of `baseURLs` (each gate of a run has its own database); the session works on all of them.
 */
export async function licensedReader({ baseURLs, adminCookie, emulator, id, units }) {
  for (const baseURL of baseURLs)
    await addOrganisation({ baseURL, cookie: adminCookie, id, name: `Licensed ${units.length}`, units });
  const reader = { uid: `bench-${id}`, email: `dev@${id}.example`, password: 'bench-licensed', emailVerified: true };
  await seedReaders(emulator.host, emulator.projectId, [reader]);
  return startSession(baseURLs[0], await signInWithPassword(emulator.host, reader.email, reader.password));
}

export async function measureAdminList({ baseURL, cookie, requests = 200, log }) {
  const queries = [
    'limit=50',
    'limit=50&page=7',
    'limit=50&q=reader-04',
    'limit=50&group=partner',
    'limit=50&status=disabled',
    'limit=50&sort=last-sign-in',
    'limit=50&group=staff&sort=created&page=3',
    'limit=50&q=studio-12',
  ];
  const json = async (url) => {
    const response = await fetch(`${baseURL}${url}`, { headers: { cookie } });
    const body = await response.json();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const get = async (query) => {
    const started = performance.now();
    const [body, access] = await Promise.all([json(`/api/admin/readers?${query}`), json('/api/admin/access')]);
    return { ms: performance.now() - started, body, access };
  };
  const cold = await get('limit=50');
  const samples = [];
  for (let i = 0; i < requests; i++) samples.push((await get(queries[i % queries.length])).ms);
  const sorted = [...samples].sort((a, b) => a - b);
  log(
    `  readers list: ${cold.body.total} readers in ${cold.access.organisations.length} organisations, cold ${Math.round(cold.ms)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms`,
  );
  return {
    'admin.readers': cold.body.total,
    'admin.organisations': cold.access.organisations.length,
    'admin.list_cold_ms': Math.round(cold.ms),
    'admin.list_p50_ms': Math.round(median(samples) * 10) / 10,
    'admin.list_p95_ms': Math.round(percentile(sorted, 95) * 10) / 10,
    'admin.list_requests': samples.length,
  };
}

/**
 * The CSV import of 10,000 readers (`POST /api/admin/readers/import?apply=true`, all rows new,
 * half of them in an organisation the run makes): the preview, then the import itself, each
 * timed from the request to the whole answer (its goal: bench/report.mjs).
 */
export async function measureImport({ baseURL, cookie, rows = 10_000, log }) {
  const headers = { cookie, origin: baseURL };
  const organisation = `bench-${Date.now().toString(36)}`;
  await adminPost(baseURL, cookie, '/api/admin/organisations', { id: organisation, name: 'Bench import', domains: [] });
  const csv = [
    'email,organisation,groups',
    ...Array.from({ length: rows }, (_, n) => `import-${n}@${organisation}.example,${n % 2 ? organisation : ''},`),
  ].join('\n');
  const timed = async (apply) => {
    const started = performance.now();
    const response = await fetch(`${baseURL}/api/admin/readers/import${apply ? '?apply=true' : ''}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv' },
      body: csv,
    });
    const report = await response.json();
    if (response.status !== 200)
      throw new Error(`the import answered ${response.status}: ${JSON.stringify(report).slice(0, 300)}`);
    return { ms: performance.now() - started, report };
  };
  const preview = await timed(false);
  const applied = await timed(true);
  log(`  CSV import: ${rows} rows, preview ${Math.round(preview.ms)} ms, import ${Math.round(applied.ms)} ms`);
  return {
    'admin.import_rows': applied.report.rows,
    'admin.import_preview_ms': Math.round(preview.ms),
    'admin.import_apply_ms': Math.round(applied.ms),
  };
}
