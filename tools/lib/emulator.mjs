// Starts the Firebase Auth Emulator (from the firebase-tools package) for `npm start` and
// the tests: a `demo-` project, so nothing ever reaches a real Firebase project; offline;
// emulator UI off; every port chosen by the caller or free, so two instances can run side by side.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { assertPortFree, freePorts } from './ports.mjs';
import { answers, startProcess } from './process.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_PROJECT_ID = 'demo-norigin-portal';
export const DEFAULT_SEED_FILE = join(root, 'emulator', 'demo-readers.json');
const firebaseBin = join(root, 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js');

/**
 * Starts the emulator and waits until it answers. Returns its host (`127.0.0.1:port`, the
 * form FIREBASE_AUTH_EMULATOR_HOST takes) and `stop()`, which ends it and removes its
 * working folder. Without ports, it takes three free ones.
 */
export async function startAuthEmulator({
  port,
  hubPort,
  loggingPort,
  projectId = DEFAULT_PROJECT_ID,
  quiet = true,
  // About 10 s on an idle machine; over a minute on a 2-core one running several suites.
  timeoutMs = 180_000,
  // Keep the readers across a restart: export them when the emulator stops, import them when it starts.
  importDir,
  exportOnExit,
} = {}) {
  if (!projectId.startsWith('demo-')) {
    throw new Error(`The emulator project id must start with "demo-" (got "${projectId}"), so it stays offline.`);
  }
  if (port === undefined) [port, hubPort, loggingPort] = await freePorts(3);
  hubPort ??= port + 1;
  loggingPort ??= port + 2;
  await assertPortFree(port, 'AUTH_EMULATOR_PORT');
  await assertPortFree(hubPort, 'EMULATOR_HUB_PORT');
  await assertPortFree(loggingPort, 'EMULATOR_LOGGING_PORT');

  // Its own folder: firebase-tools reads firebase.json and writes its debug log there.
  const workDir = mkdtempSync(join(tmpdir(), 'portal-auth-emulator-'));
  writeFileSync(
    join(workDir, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: hubPort },
        logging: { host: '127.0.0.1', port: loggingPort },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const persistence = [
    ...(importDir ? ['--import', importDir] : []),
    ...(exportOnExit ? ['--export-on-exit', exportOnExit] : []),
  ];
  const emulator = startProcess(
    process.execPath,
    [
      firebaseBin,
      'emulators:start',
      '--only',
      'auth',
      '--project',
      projectId,
      '--config',
      'firebase.json',
      ...persistence,
    ],
    {
      name: 'The Auth Emulator',
      cwd: workDir,
      env: { NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_MOTD: '1', CI: process.env.CI ?? '' },
      stdout: 'collect',
      stderr: 'collect',
      echo: !quiet,
      // firebase-tools may start processes of its own: signals go to the whole group.
      group: process.platform !== 'win32',
      stopSignal: 'SIGINT',
      killAfterMs: 15_000,
      keepChars: 8000,
    },
  );
  const host = `127.0.0.1:${port}`;
  let stopped;
  const stop = () => {
    stopped ??= emulator.stop().then(() => rmSync(workDir, { recursive: true, force: true }));
    return stopped;
  };
  try {
    await emulator.waitUntil(answers(`http://${host}/`), { timeoutMs, intervalMs: 200 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { host, projectId, port, hubPort, loggingPort, pid: emulator.pid, stop, child: emulator.child };
}

/** Reads the demo readers from the seed file in the repository. */
export function readSeed(seedFile = DEFAULT_SEED_FILE) {
  const seed = JSON.parse(readFileSync(seedFile, 'utf8'));
  if (!Array.isArray(seed.readers)) throw new Error(`${seedFile} has no "readers" list`);
  return seed.readers;
}

/** An administrator call to the emulator's Identity Toolkit API (`/accounts`, `/accounts:update`, …). */
export async function emulatorRequest(host, projectId, path, body) {
  const response = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/projects/${projectId}${path}`, {
    method: 'POST',
    // The emulator accepts this fixed bearer token for administrator calls.
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`Auth Emulator ${path} failed: ${JSON.stringify(json.error ?? json)}`);
  return json;
}

/**
 * Imports readers into a running emulator: e-mail/password readers, readers whose
 * identity is a GitHub account or their organisation's OIDC provider, readers in groups (the `groups` custom claim) and
 * disabled readers, as the seed file describes them.
 */
export async function seedReaders(host, projectId = DEFAULT_PROJECT_ID, readers = readSeed()) {
  for (const reader of readers) {
    await emulatorRequest(host, projectId, '/accounts', {
      localId: reader.uid,
      email: reader.email,
      password: reader.password,
      displayName: reader.displayName,
      emailVerified: reader.emailVerified ?? false,
    });
    // A linked provider (GitHub, an organisation's OIDC provider): the emulator's sign-in
    // window offers the account there. Linking rewrites the account, so a password is set again.
    const linked = [
      ...(reader.github
        ? [{ providerId: 'github.com', rawId: reader.github.uid, screenName: reader.github.login }]
        : []),
      ...(reader.oidc ? [{ providerId: reader.oidc.providerId, rawId: reader.oidc.uid }] : []),
    ];
    if (linked.length > 0) {
      await emulatorRequest(host, projectId, '/accounts:batchCreate', {
        users: [
          {
            localId: reader.uid,
            email: reader.email,
            displayName: reader.displayName,
            emailVerified: reader.emailVerified ?? false,
            providerUserInfo: linked.map((provider) => ({
              ...provider,
              email: reader.email,
              displayName: reader.displayName,
            })),
          },
        ],
        allowOverwrite: true,
      });
      if (reader.password)
        await emulatorRequest(host, projectId, '/accounts:update', { localId: reader.uid, password: reader.password });
    }
    if (reader.groups) {
      await emulatorRequest(host, projectId, '/accounts:update', {
        localId: reader.uid,
        customAttributes: JSON.stringify({ groups: reader.groups }),
      });
    }
    if (reader.disabled) {
      await emulatorRequest(host, projectId, '/accounts:update', { localId: reader.uid, disableUser: true });
    }
  }
  return readers;
}
