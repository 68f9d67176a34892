// `npm start`: build what is missing or stale, start the Firebase Auth Emulator with the
// demo readers, start the gate server, and keep them running until Ctrl-C.
//   PORT (3000)                the portal
//   AUTH_EMULATOR_PORT (9099)  the Auth Emulator; its hub and logging ports follow (+1, +2)
//   EMULATOR_HUB_PORT, EMULATOR_LOGGING_PORT  override those two
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildServer, buildSiteIfStale } from './build-if-stale.mjs';
import { assertPortFree, readSeed, seedReaders, startAuthEmulator } from './emulator.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function portSetting(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    console.error(`Cannot start the portal: ${name} must be a port number from 1 to 65535, got "${raw}"`);
    process.exit(1);
  }
  return Number(raw);
}

const port = portSetting('PORT', 3000);
const emulatorPort = portSetting('AUTH_EMULATOR_PORT', 9099);
const hubPort = portSetting('EMULATOR_HUB_PORT', emulatorPort + 1);
const loggingPort = portSetting('EMULATOR_LOGGING_PORT', emulatorPort + 2);
const host = process.env.HOST ?? '127.0.0.1';

let emulator;
let server;
let stopping = false;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  await emulator?.stop();
  process.exit(code);
}
// Ctrl-C reaches the terminal's process group (npm and this script), not the server or the
// emulator: each runs in a process group of its own and gets one signal, from here. The
// server closes gracefully on its first signal (close-with-grace: the last page views are
// written) and exits at once on a second, which a terminal's SIGINT and this script's
// SIGTERM together were.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stopAll(0));

try {
  buildServer();
  buildSiteIfStale();
  await assertPortFree(port, 'PORT');
  console.log(`Starting the Firebase Auth Emulator on port ${emulatorPort}…`);
  emulator = await startAuthEmulator({ port: emulatorPort, hubPort, loggingPort });
  await seedReaders(emulator.host, emulator.projectId);
} catch (error) {
  console.error(`Cannot start the portal: ${error.message}`);
  await stopAll(1);
}

server = spawn(process.execPath, [join(root, 'server', 'dist', 'server.js')], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: process.platform !== 'win32',
  env: {
    ...process.env,
    PORT: String(port),
    HOST: host,
    SITE_DIR: join(root, 'site', 'build'),
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    FIREBASE_PROJECT_ID: emulator.projectId,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // A few weeks of made-up reading by the demo readers, so /admin/insights is not empty
    // (marked as demo data; the server refuses it in production).
    DEMO_DATA: process.env.DEMO_DATA ?? '1',
  },
});
/** What each kind of demo reader shows, for the lines `npm start` prints. */
const DEMO_NOTES = {
  staff: 'reads everything, internal guidelines included',
  partner: 'reads the player, UI, navigation, layout and app docs and the blog; not the internal ones',
  admin: 'reads everything and runs the portal at /admin (readers, audit trail, insights)',
  'no access': 'is told on the sign-in page that the account has no access, and whom to ask',
  disabled: 'is told that the account is disabled',
};

function demoReaderLines() {
  const readers = readSeed();
  const withPassword = readers.filter((reader) => reader.password);
  const width = Math.max(...withPassword.map((reader) => reader.email.length));
  const lines = ['  Demo sign-ins (e-mail / password):'];
  for (const reader of withPassword) {
    const note = DEMO_NOTES[reader.role] ?? '';
    lines.push(`    ${reader.email.padEnd(width)}  /  ${reader.password}   ${reader.role}: ${note}`);
  }
  for (const reader of readers.filter((r) => r.github)) {
    lines.push(
      `    GitHub: "Sign in with GitHub", then pick ${reader.email} in the emulator's window (${reader.role})`,
    );
  }
  return lines.join('\n');
}

server.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (String(chunk).includes('The portal is running')) {
    console.log(demoReaderLines());
    console.log(`  Auth Emulator: http://${emulator.host}/ (project ${emulator.projectId})`);
    console.log('  Readers and groups: npm run readers -- list   (and: show, add, grant, revoke, disable, enable)');
    console.log(
      `  Data: ${process.env.DATABASE_URL ? 'the PostgreSQL server in DATABASE_URL' : `PGlite in ${process.env.DATA_DIR ?? 'data'}/pglite (embedded; nothing to install)`}\n`,
    );
  }
});
// Never leave the server behind, even if this script fails: it closes on SIGTERM by itself.
process.once('exit', () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
});
server.on('exit', (code) => {
  if (!stopping) void stopAll(code ?? 1);
});
