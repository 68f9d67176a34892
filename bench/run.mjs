// `npm run bench` (and `npm run bench -- --quick`): builds what is stale, starts the Auth
// Emulator and the gate server on free ports, measures, and writes bench/results/latest.json
// and the table in PERFORMANCE.md. Absolute figures are reported, never asserted.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildServer, buildSiteIfStale } from '../scripts/build-if-stale.mjs';
import { freePort, readSeed, seedReaders, startAuthEmulator } from '../scripts/emulator.mjs';
import { signInWithPassword, startSession } from '../scripts/portal-client.mjs';
import { measureSearch, QUERIES } from './search.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const buildDir = join(root, 'site', 'build');

async function startGate(emulatorHost) {
  const port = await freePort();
  const server = spawn(process.execPath, [join(root, 'server', 'dist', 'server.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      SITE_DIR: buildDir,
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
      SESSION_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
    },
  });
  const baseURL = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) return { server, baseURL };
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the gate server did not start');
}

async function signIn(emulatorHost, baseURL) {
  const reader = readSeed().find((r) => r.password && !r.disabled);
  return startSession(baseURL, await signInWithPassword(emulatorHost, reader.email, reader.password));
}

buildServer();
buildSiteIfStale();
const emulator = await startAuthEmulator({
  port: await freePort(),
  hubPort: await freePort(),
  loggingPort: await freePort(),
});
let gate;
try {
  await seedReaders(emulator.host, emulator.projectId);
  gate = await startGate(emulator.host);
  const cookie = await signIn(emulator.host, gate.baseURL);
  console.log(`Measuring search (${QUERIES.length} queries × ${quick ? 3 : 10} rounds)…`);
  const search = await measureSearch({ baseURL: gate.baseURL, cookie, buildDir, repeats: quick ? 3 : 10 });

  const results = {
    meta: {
      command: `npm run bench${quick ? ' -- --quick' : ''}`,
      measuredAt: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    },
    ...search,
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'latest.json'), JSON.stringify(results, null, 2) + '\n');
  console.log(JSON.stringify(results, null, 2));

  const table = [
    '| figure | value |',
    '|---|---|',
    `| search query, p50 (\`search.query_p50_ms\`) | ${search['search.query_p50_ms']} ms |`,
    `| search query, p95 (\`search.query_p95_ms\`, goal < 30 ms) | ${search['search.query_p95_ms']} ms |`,
    `| queries measured | ${search['search.queries_measured']} |`,
    `| first query of a page load, with loading the engine and index (\`search.first_query_cold_ms\`) | ${search['search.first_query_cold_ms']} ms |`,
    `| index a signed-in reader downloaded for all queries (\`search.downloaded_bytes\`) | ${(search['search.downloaded_bytes'] / 1024).toFixed(1)} KiB |`,
    `| whole index over every page, compressed (\`search.index_compressed_bytes\`) | ${(search['search.index_compressed_bytes'] / 1024).toFixed(1)} KiB in ${search['search.index_files']} files |`,
    `| whole index over public pages, compressed | ${(search['search.public_index_compressed_bytes'] / 1024).toFixed(1)} KiB |`,
  ].join('\n');
  const performance = join(root, 'PERFORMANCE.md');
  const text = readFileSync(performance, 'utf8');
  const updated = text.replace(
    /<!-- search:start -->[\s\S]*<!-- search:end -->/,
    `<!-- search:start -->\nMeasured ${results.meta.measuredAt.slice(0, 10)} with \`${results.meta.command}\` on ${results.meta.machine}.\n\n${table}\n<!-- search:end -->`,
  );
  writeFileSync(performance, updated);
} finally {
  gate?.server.kill('SIGTERM');
  await emulator.stop();
}
