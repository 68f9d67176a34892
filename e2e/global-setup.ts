import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { request } from '@playwright/test';

import { EmulatorReaders } from '../server/src/test/readers';
import { seedReaders, startAuthEmulator } from '../tools/lib/emulator.mjs';
import { startGate } from '../tools/lib/gate.mjs';
import { startMailCatcher } from '../tools/lib/mail-catcher.mjs';
import { readerState } from './reader-state';
import { demoReader } from './readers';
import { E2E_SESSION_SECRET } from './security/lib';

/**
 * Signs the demo reader in through the session API (the sign-in form itself is tested in
 * auth.e2e.ts) and keeps the cookies for the reader tests, after checking that they open a
 * private page.
 */
async function signInDemoReader(baseURL: string, emulatorHost: string, projectId: string): Promise<void> {
  const idToken = await new EmulatorReaders(emulatorHost, projectId).signIn(demoReader.email, demoReader.password);
  const context = await request.newContext({ baseURL });
  try {
    const session = await context.post('/api/session', { data: { idToken }, headers: { origin: baseURL } });
    if (session.status() !== 200) throw new Error(`the demo reader's session answered ${session.status()}`);
    const page = await context.get('/docs/layout-engine/', { maxRedirects: 0 });
    if (page.status() !== 200) throw new Error(`a private page answered the demo reader ${page.status()}`);
    await context.storageState({ path: readerState });
  } finally {
    await context.dispose();
  }
}

/**
 * Starts the Firebase Auth Emulator and MailDev on the ports the config chose, loads the demo
 * readers, and starts the gate server in front of site/build for the whole run.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const emulator = await startAuthEmulator({
    port: Number(process.env.E2E_EMULATOR_PORT),
    hubPort: Number(process.env.E2E_EMULATOR_HUB_PORT),
    loggingPort: Number(process.env.E2E_EMULATOR_LOGGING_PORT),
  });
  // The portal's mail (invitations, answers to access requests) goes to MailDev, as with
  // `npm start`; its inbox is at E2E_MAIL_WEB_PORT (e2e/mail.ts).
  const mail = await startMailCatcher({
    smtpPort: Number(process.env.E2E_MAIL_SMTP_PORT),
    webPort: Number(process.env.E2E_MAIL_WEB_PORT),
  }).catch(async (error: unknown) => {
    await emulator.stop();
    throw error;
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
        SMTP_URL: mail.smtpUrl,
        MAIL_INBOX_URL: mail.inboxUrl,
      },
    });
    await signInDemoReader(`http://127.0.0.1:${process.env.E2E_PORT}`, emulator.host, emulator.projectId);
    return async () => {
      await gate.stop();
      await emulator.stop();
      await mail.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  } catch (error) {
    await emulator.stop();
    await mail.stop();
    throw error;
  }
}
