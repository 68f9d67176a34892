// Helpers the benchmark's parts share: statistics (from bench/stats.mjs), timing a command with the peak memory
// of its whole process tree, copies of the site's sources to build elsewhere (from
// tools/lib/site-copy.mjs), and the gate server started on a free port.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureDebianPackages } from '../tools/lib/apt.mjs';
import { startGate as startGateProcess } from '../tools/lib/gate.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Scratch space for copies and builds; gitignored, emptied part by part as the bench needs. */
export const workDir = join(root, 'bench', '.work');

/**
 * The private doc page every part measures: a package README with long code samples, a
 * table of contents and the full docs sidebar (the heaviest kind of page the portal has).
 */
export const DOC_PATH = '/docs/player-manager-mono/packages/player-adapter-dash.js/';

/**
 * The Lighthouse goals (issue 12): each category's score out of 100 per form factor, and
 * the layout shift every page must stay at. docs/performance.md marks a figure that misses.
 */
export const LIGHTHOUSE_GOALS = {
  performance: { desktop: 100, mobile: 95 },
  accessibility: { desktop: 100, mobile: 100 },
  best_practices: { desktop: 100, mobile: 100 },
  seo: { desktop: 100, mobile: 100 },
  cls: 0,
};

export { median, percentile, round } from './stats.mjs';

/** Resident memory (bytes) of a process and all its descendants, read from /proc. */
function treeRss(rootPid) {
  const parents = new Map();
  const rss = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(name), Number(fields[1]));
      rss.set(Number(name), Number(fields[21]) * 4096);
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p = pid; p > 1; p = parents.get(p) ?? 0) {
      if (p === rootPid) {
        total += bytes;
        break;
      }
    }
  }
  return total;
}

/**
 * Runs a command to completion and reports its wall time and the peak resident memory of
 * its process tree (sampled every 50 ms). The command's output is returned (and shown on failure).
 */
export function timeCommand(command, args, { cwd, env, label }) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, treeRss(child.pid));
    }, 50);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearInterval(sampler);
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) {
        reject(new Error(`${label ?? command} failed (${signal ?? `exit ${code}`}):\n${output.slice(-4000)}`));
        return;
      }
      resolve({ wallMs, peakRssBytes: peak, output });
    });
  });
}

export { copySiteSources, docusaurusBin, rewrite } from '../tools/lib/site-copy.mjs';

/**
 * Starts the gate server over `siteDir` on a free port, with an embedded database of its
 * own, and waits until it reaches that database: what is measured may write to it (tokens,
 * page views), and the database is migrated after the server listens.
 */
export function startGate({ siteDir, emulatorHost, env = {} }) {
  return startGateProcess({ siteDir, emulatorHost, env: { SESSION_RATE_LIMIT: '1000', ...env } });
}

/** Absolute paths of nginx and wrk, installing them from Debian's packages if this is root. */
export function ensureTools() {
  return ensureDebianPackages(
    [
      { pkg: 'nginx', command: 'nginx' },
      { pkg: 'wrk', command: 'wrk' },
    ],
    { purpose: 'The benchmark' },
  );
}

/**
 * The cookies a browser holds after signing in: the session cookie and the hints the gate
 * sets beside it with every session answer (`portal_groups` and `portal_units`), which the
 * head script of every page reads to paint the reader's sidebar and cards at once. Taken
 * from the gate's own answer, so the bench's browsers hold what a reader's does.
 */
export async function signedInCookies(baseURL, sessionCookie) {
  const response = await fetch(`${baseURL}/api/session`, { headers: { cookie: sessionCookie } });
  if (!response.ok) throw new Error(`GET /api/session with the new session answered ${response.status}`);
  const hints = response.headers.getSetCookie().map((line) => line.split(';')[0]);
  for (const name of ['portal_groups', 'portal_units']) {
    if (!hints.some((pair) => pair.startsWith(`${name}=`))) throw new Error(`GET /api/session set no ${name} cookie`);
  }
  return [sessionCookie, ...hints].join('; ');
}
