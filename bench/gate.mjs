// What the gate costs per request: requests/s and latency for a private doc page with a
// valid session, against the same server's public page of the same bytes, nginx (Debian's
// package) serving the same file, Node's bare http sending the same answer, and the same
// gate without each of its speed-ups. Load comes from wrk in a second process (one
// thread); the targets are measured in rotating order, round after round.
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { normalizeRoute } from '@portal/access';

import { startNginx as startNginxProcess } from '../tools/lib/nginx.mjs';
import { freePort } from '../tools/lib/ports.mjs';
import { answers, startProcess } from '../tools/lib/process.mjs';
import { median, root, round, workDir } from './lib.mjs';
import { ratioWithInterval } from './stats.mjs';

export const TWIN_PATH = '/bench-public-twin/';

/**
 * A site folder for the gate that is the portal's build plus one public page, the "twin",
 * whose file is the private doc page's own file: the same bytes served with and without the
 * session check. The build's files are linked, not copied; only the manifest differs.
 */
export function twinSite(buildDir, docPath, dir = join(workDir, 'gate-site')) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(buildDir)) {
    if (name !== 'portal-manifest.json') symlinkSync(join(buildDir, name), join(dir, name));
  }
  const manifest = JSON.parse(readFileSync(join(buildDir, 'portal-manifest.json'), 'utf8'));
  const page = manifest.entries[normalizeRoute(docPath)];
  if (!page || page.access !== 'private' || page.kind !== 'page') {
    throw new Error(`${docPath} is not a private page of the build; pick another doc page in bench/client.mjs`);
  }
  manifest.entries[normalizeRoute(TWIN_PATH)] = { ...page, url: TWIN_PATH, access: 'public', units: [] };
  writeFileSync(join(dir, 'portal-manifest.json'), JSON.stringify(manifest));
  return dir;
}

/** nginx on loopback over `rootDir`, one worker (the gate is one Node.js process), no access log. */
export function startNginx(nginxPath, rootDir) {
  return startNginxProcess({
    nginxPath,
    dir: join(workDir, 'nginx'),
    http: (port) => `
sendfile on;
tcp_nopush on;
keepalive_requests 1000000;
open_file_cache max=1000 inactive=60s;
# The build step's .gz files, the same bytes the gate sends for Accept-Encoding: gzip.
gzip_static on;
types { text/html html; text/javascript js; text/css css; }
default_type application/octet-stream;
server {
  listen 127.0.0.1:${port};
  root ${rootDir};
  index index.html;
  location / { try_files $uri $uri/ =404; }
}`,
  });
}

function toMs(value) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value);
  if (!match) throw new Error(`wrk printed a latency it cannot read: ${value}`);
  return Number(match[1]) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[match[2]];
}

/**
 * Starts bench/node-http-peer.mjs with the response the gate gave `url` (headers that
 * describe the connection or the moment left out), so it sends the very same bytes.
 */
export async function startNodeHttpPeer(url, headers) {
  // node:http, not fetch(): fetch() undoes the compression, and the peer must send the
  // gate's bytes as they came.
  const {
    status,
    headers: received,
    body,
  } = await new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
  if (status !== 200) throw new Error(`${url} answered ${status}`);
  const kept = {};
  for (const [name, value] of Object.entries(received)) {
    if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) kept[name] = value;
  }
  const dir = join(workDir, 'node-http-peer');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'response.json');
  writeFileSync(file, JSON.stringify({ headers: kept, bodyBase64: body.toString('base64') }));
  const port = await freePort();
  const peer = startProcess(process.execPath, [join(root, 'bench', 'node-http-peer.mjs'), String(port), file], {
    name: 'The Node.js http peer',
  });
  const baseURL = `http://127.0.0.1:${port}`;
  await peer.waitUntil(answers(`${baseURL}/`), { timeoutMs: 10_000, intervalMs: 50 });
  return { ...peer, baseURL };
}

/** Requests/s and p50/p99 (ms) from wrk's `--latency` report; throws on failed requests. */
export function parseWrk(out, url) {
  if (/Non-2xx or 3xx responses/.test(out) || /Socket errors/.test(out)) {
    throw new Error(`wrk saw failed requests against ${url}:\n${out}`);
  }
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const requests = /(\d+) requests in/.exec(out);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out);
  const p99 = /^\s+99%\s+(\S+)/m.exec(out);
  if (!rps || !p50 || !p99) throw new Error(`wrk printed something unexpected:\n${out}`);
  return { rps: Number(rps[1]), requests: Number(requests?.[1] ?? NaN), p50: toMs(p50[1]), p99: toMs(p99[1]) };
}

/** One wrk run; throws when any answer was not 2xx/3xx or a socket failed. */
export function runWrk(wrkPath, url, { seconds, connections, headers }) {
  return new Promise((resolve, reject) => {
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
    const child = spawn(wrkPath, [...args, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}`));
      try {
        resolve(parseWrk(out, url));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/**
 * CPU time (ms) a process has used so far, in its first thread (the one that answers
 * requests in Node.js) and in all its threads together, from /proc; null elsewhere.
 */
export function processCpu(pid) {
  const ticks = (file) => {
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    // utime and stime, in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  try {
    return { main: ticks(`/proc/${pid}/task/${pid}/stat`), all: ticks(`/proc/${pid}/stat`) };
  } catch {
    return null;
  }
}

/** Checks that each target answers 200 with the very same body before anything is timed. */
async function sameBodies(targets) {
  let reference = null;
  let sent = 0;
  for (const target of targets) {
    const response = await fetch(target.url, { headers: target.headers, redirect: 'manual' });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${target.name} (${target.url}) answered ${response.status}`);
    const encoding = response.headers.get('content-encoding') ?? 'identity';
    const wanted = target.headers['Accept-Encoding'] ?? 'identity';
    if (encoding !== wanted) throw new Error(`${target.name} answered with ${encoding}, not ${wanted}`);
    sent ||= Number(response.headers.get('content-length') ?? 0);
    if (reference && !reference.equals(body)) throw new Error(`${target.name} served different bytes`);
    reference ??= body;
  }
  return { bytes: reference.length, sent };
}

/**
 * `gates`: the gate servers under load, each { url, pid }: `private` (the portal as it
 * runs), and beside it the same build and code with one thing changed:
 * `private_unrecorded` (AUDIT_PAGE_VIEWS=false), and `private_no_fast_path` (GATE_FAST_PATH=off:
 * every request through Fastify's own cycle).
 */
export async function measureGate({
  gates,
  nginxURL,
  nodeURL,
  nodePid,
  cookie,
  reader,
  docPath,
  wrkPath,
  rounds,
  seconds,
  log,
}) {
  // Browsers always send Accept-Encoding; gzip is the encoding both servers have
  // precompressed (nginx from Debian has no brotli), so all of them send the same bytes.
  // Every target gets the very same request, the reader's session cookie included (a
  // signed-in reader's browser sends it for public pages too): only what is done with it
  // differs.
  const request = { 'Accept-Encoding': 'gzip', Cookie: cookie };
  const gate = (name) => ({ name, url: gates[name].url + docPath, headers: request, pid: gates[name].pid });
  // In this order the two sides of the fast path's ratio, of the gate against Node's http
  // and of the public page against Node's http run one right after the other.
  const targets = [
    gate('private_unrecorded'),
    gate('private_no_fast_path'),
    gate('private'),
    // Node.js's own http answering with the gate's answer to the private page.
    { name: 'node_http', url: nodeURL + docPath, headers: request, pid: nodePid },
    // A public page of the same bytes on the same server: what the session check costs.
    { name: 'public', url: gates.private.url + TWIN_PATH, headers: request },
    { name: 'nginx', url: nginxURL + docPath, headers: request },
  ];
  const { bytes, sent } = await sameBodies(targets);
  const anonymous = await fetch(gates.private.url + docPath, { redirect: 'manual' });
  if (anonymous.status !== 302) throw new Error(`the private page answered ${anonymous.status} without a session`);
  const connections = 32;
  for (const target of targets) await runWrk(wrkPath, target.url, { seconds: 2, connections, headers: target.headers });
  const runs = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (let r = 0; r < rounds; r++) {
    // Forwards in even rounds and backwards in odd ones: neighbours stay neighbours, and
    // each goes first as often as the other.
    for (let i = 0; i < targets.length; i++) {
      const target = targets[r % 2 === 0 ? i : targets.length - 1 - i];
      const before = target.pid ? processCpu(target.pid) : null;
      const run = await runWrk(wrkPath, target.url, { seconds, connections, headers: target.headers });
      const after = target.pid ? processCpu(target.pid) : null;
      if (before && after) {
        run.mainUs = ((after.main - before.main) * 1000) / run.requests;
        run.allUs = ((after.all - before.all) * 1000) / run.requests;
      }
      runs[target.name].push(run);
    }
    log(
      `  load ${r + 1}/${rounds}: ` + targets.map((t) => `${t.name} ${Math.round(runs[t.name][r].rps)}/s`).join(', '),
    );
  }
  const stat = (name, key) => median(runs[name].map((run) => run[key]));
  // Each ratio is the median of the rounds' own ratios, each of two runs seconds apart (a
  // shared machine's speed drifts over minutes), with the bootstrap interval of the rounds.
  const ratio = (key, a, b, field = 'rps') =>
    ratioWithInterval(
      key,
      runs[a].map((run) => run[field]),
      runs[b].map((run) => run[field]),
    );
  const latency = (name) => ({
    [`gate.${name}_p50_ms`]: round(stat(name, 'p50'), 2),
    [`gate.${name}_p99_ms`]: round(stat(name, 'p99'), 2),
  });
  return {
    'gate.page_bytes': bytes,
    'gate.sent_bytes': sent,
    'gate.encoding': request['Accept-Encoding'],
    // The private page is read by a partner (bench/run.mjs): group check included.
    'gate.private_reader': reader,
    ...Object.fromEntries(targets.map((t) => [`gate.${t.name}_rps`, Math.round(stat(t.name, 'rps'))])),
    ...ratio('gate.private_vs_public_rps', 'private', 'public'),
    ...ratio('gate.recorded_vs_unrecorded_rps', 'private', 'private_unrecorded'),
    ...ratio('gate.private_vs_nginx_rps', 'private', 'nginx'),
    ...ratio('gate.node_http_vs_nginx_rps', 'node_http', 'nginx'),
    ...ratio('gate.public_vs_node_http_rps', 'public', 'node_http'),
    // The gate's hot path against the floor under any Node.js server (issue 15), with page
    // views recorded as by default, and without (what the gate itself costs).
    ...ratio('gate.private_vs_node_http_rps', 'private', 'node_http'),
    ...ratio('gate.private_unrecorded_vs_node_http_rps', 'private_unrecorded', 'node_http'),
    // The speed-ups of issue 60, each against the same gate without it.
    ...ratio('gate.fast_path_on_vs_off_rps', 'private', 'private_no_fast_path'),
    ...latency('private'),
    ...latency('private_no_fast_path'),
    ...latency('public'),
    ...latency('nginx'),
    ...latency('node_http'),
    // CPU per request (µs): in the thread that answers requests, and in the whole gate
    // process (its database thread and the garbage collector's threads too). On a machine
    // whose cores are all busy (the load tool runs beside the gate) every thread's time
    // counts against requests per second; with a core to spare, only the first one's does.
    ...Object.fromEntries(
      ['private', 'private_unrecorded', 'private_no_fast_path'].flatMap((name) => [
        [`gate.${name}_request_thread_us`, round(stat(name, 'mainUs'), 1)],
        [`gate.${name}_process_us`, round(stat(name, 'allUs'), 1)],
      ]),
    ),
    // The same for Node's bare http answering the same request, and what share of the
    // gate's CPU per private request that is.
    'gate.node_http_process_us': round(stat('node_http', 'allUs'), 1),
    ...ratio('gate.node_http_vs_private_cpu', 'node_http', 'private', 'allUs'),
    'gate.connections': connections,
    'gate.seconds_per_run': seconds,
    'gate.rounds': rounds,
  };
}
