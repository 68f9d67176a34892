// Starts the gate server (server/dist/server.js) for `npm start`, the browser and security
// tests, the benchmark and `test:deploy`, and waits until it serves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from './ports.mjs';
import { answers, startProcess } from './process.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SERVER_ENTRY = join(root, 'server', 'dist', 'server.js');
export const SITE_BUILD = join(root, 'site', 'build');

/** What "started" means: the process listens (/healthz), or it also reaches its database (/readyz). */
const readiness = {
  listening: (baseURL) => answers(`${baseURL}/healthz`),
  database: (baseURL) =>
    answers(`${baseURL}/readyz`, async (response) => response.ok && (await response.json()).checks?.database === true),
};

/**
 * Starts a gate server and resolves once it is `until` (see above). Without `port`, on a
 * free one; without `dataDir`, with an embedded database of its own in a temporary folder
 * (two processes must never share one), removed when it stops. `dataDir: null` leaves
 * DATA_DIR to the environment (the server's default: ./data).
 */
export async function startGate({
  port,
  host = '127.0.0.1',
  siteDir = SITE_BUILD,
  emulatorHost,
  projectId,
  dataDir,
  env = {},
  until = 'database',
  allowExit = false,
  stdout = 'ignore',
  stderr = 'inherit',
  group = false,
  // Long: a two-core machine running other suites beside it is slow to start the gate.
  timeoutMs = 180_000,
} = {}) {
  const chosenPort = port ?? (await freePort());
  const ownDataDir = dataDir === undefined ? mkdtempSync(join(tmpdir(), 'portal-gate-data-')) : null;
  const dataFolder = ownDataDir ?? dataDir;
  const gate = startProcess(process.execPath, [SERVER_ENTRY], {
    name: `The gate server on port ${chosenPort}`,
    cwd: root,
    env: {
      SITE_DIR: siteDir,
      LOG_LEVEL: 'warn',
      ...(emulatorHost === undefined ? {} : { FIREBASE_AUTH_EMULATOR_HOST: emulatorHost }),
      ...(projectId === undefined ? {} : { FIREBASE_PROJECT_ID: projectId }),
      ...(dataFolder ? { DATA_DIR: dataFolder } : {}),
      ...env,
      PORT: String(chosenPort),
      HOST: host,
    },
    stdout,
    stderr,
    group,
    // close-with-grace in the server: one SIGTERM finishes what is in flight and writes
    // what the audit queue holds; a second cuts that short, so it only ever gets one.
    stopSignal: 'SIGTERM',
    onExitSignal: 'SIGTERM',
  });
  if (ownDataDir) void gate.exited.then(() => rmSync(ownDataDir, { recursive: true, force: true }));
  const baseURL = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${chosenPort}`;
  const started = { ...gate, baseURL, port: chosenPort };
  try {
    await gate.waitUntil(readiness[until](baseURL), { timeoutMs });
  } catch (error) {
    // A test of a server that refuses to start wants the exit code and the message, not an error.
    if (allowExit && !gate.running()) return started;
    await gate.stop('SIGKILL');
    throw error;
  }
  return started;
}
