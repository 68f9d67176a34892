// `npm run hook -- <source id>`: sends the running portal a signed release hook for one source
// of site/sources.yaml, as GitHub or a registry would after a release: a `package` event for
// an npm source, a `release` event for a git one, signed with the hook secret (the one
// SOURCES_HOOK_SECRET names, else the one `npm start` keeps in its data folder). The portal
// queues a rebuild of that source; /admin/sources shows the job, and the rebuilt site is
// served once it is published.
//
//   npm run hook -- <source id> [--url http://localhost:3000]
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { Webhooks } from '@octokit/webhooks';
import { loadSources } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

/** Where `npm start` keeps the hook secret it made (in its data folder). */
export const hookSecretFile = (dataFolder = process.env.DATA_DIR ?? 'data') => join(dataFolder, 'hook-secret');

/**
 * The event and the signed body of a release hook for `source` (a source of sources.yaml),
 * dated `now`: it names the source in the body, where the signature covers it.
 */
export function releaseHook(source, now = new Date()) {
  const sentAt = now.toISOString();
  if (source.kind === 'npm')
    return {
      event: 'package',
      payload: {
        action: 'published',
        source: source.id,
        sent_at: sentAt,
        package: { name: source.package, package_type: 'npm', updated_at: sentAt },
      },
    };
  if (source.kind === 'git')
    return {
      event: 'release',
      payload: {
        action: 'published',
        source: source.id,
        sent_at: sentAt,
        release: { published_at: sentAt },
        repository: { full_name: source.repository, clone_url: source.repository },
      },
    };
  throw new Error(`${source.id} is written in this repository (kind ${source.kind}): no release of it to announce`);
}

/** The request a hook is sent as: its headers and the body its signature covers. */
export async function signedHook({ event, payload }, secret) {
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': await new Webhooks({ secret }).sign(body),
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      allowPositionals: true,
      options: { url: { type: 'string', default: `http://localhost:${process.env.PORT ?? 3000}` } },
    }));
    if (positionals.length !== 1) throw new Error('Name one source');
  } catch (error) {
    console.error(`${error.message}\nusage: npm run hook -- <source id> [--url http://localhost:3000]`);
    process.exit(2);
  }
  const paths = syncPaths();
  const { sources } = loadSources(paths.sourcesFile, { siteDir: paths.siteDir });
  const source = sources.find((candidate) => candidate.id === positionals[0]);
  const synced = sources.filter((candidate) => candidate.kind !== 'local').map((candidate) => candidate.id);
  if (!source) {
    console.error(`No source "${positionals[0]}" in ${paths.sourcesFile}; its synced sources: ${synced.join(', ')}`);
    process.exit(2);
  }
  let secret = process.env.SOURCES_HOOK_SECRET;
  if (!secret) {
    try {
      secret = readFileSync(hookSecretFile(), 'utf8').trim();
    } catch {
      console.error(
        `No hook secret: set SOURCES_HOOK_SECRET, or start the portal with npm start (it keeps one in ${hookSecretFile()})`,
      );
      process.exit(2);
    }
  }
  try {
    const { body, headers } = await signedHook(releaseHook(source), secret);
    const answer = await fetch(new URL('/api/hooks/sync', values.url), { method: 'POST', headers, body });
    const text = await answer.text();
    let parsed = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not the portal's JSON: shown as it came.
    }
    if (!answer.ok) {
      console.error(`The portal answered ${answer.status}: ${parsed?.error ?? text}`);
      process.exit(1);
    }
    if (parsed?.ignored) console.log(`The portal took the hook and ignored it: ${parsed.ignored}`);
    for (const job of parsed?.jobs ?? [])
      console.log(
        `Rebuild ${job.id} of ${job.source}: ${job.state}. Follow it at ${new URL('/admin/sources', values.url)}`,
      );
  } catch (error) {
    console.error(`Cannot send the hook to ${values.url}: ${error.cause?.message ?? error.message}`);
    process.exit(1);
  }
}
