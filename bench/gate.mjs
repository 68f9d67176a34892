// What the gate costs per request: requests/s and latency for a private doc page with a
// valid session, against the same server's public page of the same bytes, and against
// nginx (Debian's package) serving the same file from the same build. Load comes from wrk
// in a second process (one thread); the three targets are measured in rotating order.
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { normalizeRoute } from '@portal/access';

import { startNginx as startNginxProcess } from '../tools/lib/nginx.mjs';
import { freePort } from '../tools/lib/ports.mjs';
import { answers, startProcess } from '../tools/lib/process.mjs';
import { median, root, round, workDir } from './lib.mjs';

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

export async function measureGate({
  gateURL,
  unrecordedURL,
  gatePid,
  unrecordedPid,
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
  // In this order, every ratio below compares two targets run one right after the other
  // (private and private_unrecorded, private and node_http, public and node_http).
  const targets = [
    // The same gate code and page with page views not recorded (AUDIT_PAGE_VIEWS=false): what recording costs.
    { name: 'private_unrecorded', url: unrecordedURL + docPath, headers: request, pid: unrecordedPid },
    { name: 'private', url: gateURL + docPath, headers: request, pid: gatePid },
    // Node.js's own http answering with the gate's answer to the private page.
    { name: 'node_http', url: nodeURL + docPath, headers: request, pid: nodePid },
    // A public page of the same bytes on the same server: what the session check costs.
    { name: 'public', url: gateURL + TWIN_PATH, headers: request },
    // The same without the cookie: how the peer was asked until 2026-11-24 (reported only).
    { name: 'node_http_bare', url: nodeURL + docPath, headers: { 'Accept-Encoding': request['Accept-Encoding'] } },
    { name: 'nginx', url: nginxURL + docPath, headers: request },
  ];
  const { bytes, sent } = await sameBodies(targets);
  const anonymous = await fetch(gateURL + docPath, { redirect: 'manual' });
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
  // A ratio is the median of the rounds' ratios, each of two runs seconds apart: a shared
  // machine's speed drifts over minutes, and a ratio of two medians would take that drift
  // in; within a round both targets meet nearly the same machine.
  const roundRatios = (a, b, key = 'rps') => runs[a].map((run, r) => run[key] / runs[b][r][key]);
  const ratio = (a, b, key = 'rps') => median(roundRatios(a, b, key));
  // Each round's own ratio, for the figures with a goal: the report calls a goal met only
  // when every round meets it (bench/report.mjs).
  const spread = (a, b) => roundRatios(a, b).map((value) => round(value, 3));
  return {
    'gate.page_bytes': bytes,
    'gate.sent_bytes': sent,
    'gate.encoding': request['Accept-Encoding'],
    // The private page is read by a partner (bench/run.mjs): group check included.
    'gate.private_reader': reader,
    'gate.private_rps': Math.round(stat('private', 'rps')),
    'gate.public_rps': Math.round(stat('public', 'rps')),
    'gate.nginx_rps': Math.round(stat('nginx', 'rps')),
    'gate.private_vs_public_rps': round(ratio('private', 'public'), 3),
    'gate.private_vs_public_rps_spread': spread('private', 'public'),
    'gate.private_unrecorded_rps': Math.round(stat('private_unrecorded', 'rps')),
    'gate.recorded_vs_unrecorded_rps': round(ratio('private', 'private_unrecorded'), 3),
    'gate.recorded_vs_unrecorded_rps_spread': spread('private', 'private_unrecorded'),
    'gate.private_vs_nginx_rps': round(ratio('private', 'nginx'), 3),
    'gate.private_vs_nginx_rps_spread': spread('private', 'nginx'),
    'gate.node_http_rps': Math.round(stat('node_http', 'rps')),
    'gate.node_http_vs_nginx_rps': round(ratio('node_http', 'nginx'), 3),
    'gate.public_vs_node_http_rps': round(ratio('public', 'node_http'), 3),
    // The gate's hot path against the floor under any Node.js server (issue 15), with page
    // views recorded as by default, and without (what the gate itself costs).
    'gate.private_vs_node_http_rps': round(ratio('private', 'node_http'), 3),
    'gate.private_vs_node_http_rps_spread': spread('private', 'node_http'),
    'gate.private_unrecorded_vs_node_http_rps': round(ratio('private_unrecorded', 'node_http'), 3),
    // Against Node's http asked without the session cookie: the cost of reading the 1 KB
    // cookie off the socket counted against the gate too (the comparison before 2026-11-24).
    'gate.node_http_bare_rps': Math.round(stat('node_http_bare', 'rps')),
    'gate.private_vs_node_http_bare_rps': round(ratio('private', 'node_http_bare'), 3),
    'gate.node_http_p50_ms': round(stat('node_http', 'p50'), 2),
    'gate.node_http_p99_ms': round(stat('node_http', 'p99'), 2),
    'gate.private_p50_ms': round(stat('private', 'p50'), 2),
    'gate.private_p99_ms': round(stat('private', 'p99'), 2),
    'gate.public_p50_ms': round(stat('public', 'p50'), 2),
    'gate.public_p99_ms': round(stat('public', 'p99'), 2),
    'gate.nginx_p50_ms': round(stat('nginx', 'p50'), 2),
    'gate.nginx_p99_ms': round(stat('nginx', 'p99'), 2),
    // CPU per request (µs): in the thread that answers requests, and in the whole gate
    // process (its database thread and the garbage collector's threads too). On a machine
    // whose cores are all busy (the load tool runs beside the gate) every thread's time
    // counts against requests per second; with a core to spare, only the first one's does.
    'gate.private_request_thread_us': round(stat('private', 'mainUs'), 1),
    'gate.private_process_us': round(stat('private', 'allUs'), 1),
    'gate.private_unrecorded_request_thread_us': round(stat('private_unrecorded', 'mainUs'), 1),
    'gate.private_unrecorded_process_us': round(stat('private_unrecorded', 'allUs'), 1),
    // The same for Node's bare http answering the same request, and what share of the
    // gate's CPU per private request that is: steadier than requests/s on a shared machine.
    'gate.node_http_process_us': round(stat('node_http', 'allUs'), 1),
    'gate.node_http_vs_private_cpu': round(ratio('node_http', 'private', 'allUs'), 3),
    'gate.connections': connections,
    'gate.seconds_per_run': seconds,
    'gate.rounds': rounds,
  };
}
