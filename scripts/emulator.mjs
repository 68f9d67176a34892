// Starts the Firebase Auth Emulator (from the firebase-tools package) for `npm start` and
// the tests: a `demo-` project, so nothing ever reaches a real Firebase project; offline;
// emulator UI off; every port chosen by the caller, so two instances can run side by side.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_PROJECT_ID = 'demo-norigin-portal';
export const DEFAULT_SEED_FILE = join(root, 'emulator', 'demo-readers.json');
const firebaseBin = join(root, 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js');

/** Resolves when `port` on 127.0.0.1 can be bound, rejects with a message naming `setting` otherwise. */
export function assertPortFree(port, setting) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () =>
      reject(new Error(`Port ${port} is already in use; choose another with ${setting}=<port>.`)),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** Ports this process has handed out already: never handed out twice. */
const handedOut = new Set();

/**
 * A port the OS says is free right now, and one this process has not handed out before:
 * callers start their servers some time after asking (the test setup starts the emulator
 * and PostgreSQL side by side), and the OS may offer a port again once its probe is closed.
 */
export async function freePort() {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await new Promise((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('The OS offered only ports already handed out, 50 times over.');
}

async function waitUntilReady(url, child, timeoutMs, output) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The Auth Emulator exited (code ${child.exitCode}) before it was ready:\n${output()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The Auth Emulator was not ready within ${timeoutMs / 1000} s:\n${output()}`);
}

/**
 * Starts the emulator and waits until it answers. Returns its host (`127.0.0.1:port`, the
 * form FIREBASE_AUTH_EMULATOR_HOST takes) and `stop()`, which ends it and removes its
 * working folder.
 */
export async function startAuthEmulator({
  port = 9099,
  hubPort = port + 1,
  loggingPort = port + 2,
  projectId = DEFAULT_PROJECT_ID,
  quiet = true,
  timeoutMs = 60_000,
  // Keep the readers across a restart: export them when the emulator stops, import them when it starts.
  importDir,
  exportOnExit,
} = {}) {
  if (!projectId.startsWith('demo-')) {
    throw new Error(`The emulator project id must start with "demo-" (got "${projectId}"), so it stays offline.`);
  }
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
  const child = spawn(
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
      cwd: workDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_MOTD: '1', CI: process.env.CI ?? '' },
      detached: process.platform !== 'win32',
    },
  );
  let output = '';
  const collect = (chunk) => {
    output = (output + chunk).slice(-8000);
    if (!quiet) process.stderr.write(chunk);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  const host = `127.0.0.1:${port}`;
  // The emulator runs in its own process group; never leave it behind, even if the caller crashes.
  const killOnExit = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);
  let stopped;
  const stop = () => {
    stopped ??= new Promise((resolve) => {
      const done = () => {
        process.removeListener('exit', killOnExit);
        rmSync(workDir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', done);
      // The CLI starts the emulator in its own process group; end the whole group.
      try {
        process.kill(-child.pid, 'SIGINT');
      } catch {
        child.kill('SIGINT');
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, 15_000).unref();
    });
    return stopped;
  };
  try {
    await waitUntilReady(`http://${host}/`, child, timeoutMs, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { host, projectId, port, hubPort, loggingPort, pid: child.pid, stop, child };
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
 * identity is a GitHub account, readers in groups (the `groups` custom claim) and
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
    if (reader.github) {
      await emulatorRequest(host, projectId, '/accounts:batchCreate', {
        users: [
          {
            localId: reader.uid,
            email: reader.email,
            displayName: reader.displayName,
            emailVerified: reader.emailVerified ?? false,
            providerUserInfo: [
              {
                providerId: 'github.com',
                rawId: reader.github.uid,
                email: reader.email,
                displayName: reader.displayName,
                screenName: reader.github.login,
              },
            ],
          },
        ],
        allowOverwrite: true,
      });
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
