import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { seedReaders, startAuthEmulator } from '../tools/lib/emulator.mjs';
import { startGate } from '../tools/lib/gate.mjs';
import { E2E_SESSION_SECRET } from './security/lib';

/**
 * Starts the Firebase Auth Emulator on the ports the config chose, loads the demo readers,
 * and starts the gate server in front of site/build for the whole run.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const emulator = await startAuthEmulator({
    port: Number(process.env.E2E_EMULATOR_PORT),
    hubPort: Number(process.env.E2E_EMULATOR_HUB_PORT),
    loggingPort: Number(process.env.E2E_EMULATOR_LOGGING_PORT),
  });
  try {
    await seedReaders(emulator.host, emulator.projectId);
    // The run's own embedded database (PGlite), never the data/ folder of `npm start`. Its
    // folder is named to the tests (E2E_DATA_DIR), so the readers command they run leaves its
    // audit events where this gate reads them.
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-data-'));
    process.env.E2E_DATA_DIR = dataDir;
    const gate = await startGate({
      port: Number(process.env.E2E_PORT),
      emulatorHost: emulator.host,
      dataDir,
      env: {
        SESSION_SECRET: E2E_SESSION_SECRET,
        // Browser tests sign in many times from one address.
        SESSION_RATE_LIMIT: '10000',
        // Short, so a disabled reader is seen within the test; the default is 60 s.
        SESSION_CACHE_TTL_SECONDS: '2',
      },
    });
    return async () => {
      await gate.stop();
      await emulator.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  } catch (error) {
    await emulator.stop();
    throw error;
  }
}
