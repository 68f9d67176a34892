// `npm start`: build what is missing or stale, start the Firebase Auth Emulator with the
// demo readers, start the gate server, and keep them running until Ctrl-C.
//   PORT (3000)                the portal
//   AUTH_EMULATOR_PORT (9099)  the Auth Emulator; its hub and logging ports follow (+1, +2)
//   EMULATOR_HUB_PORT, EMULATOR_LOGGING_PORT  override those two
//   SITE_URL (http://localhost:PORT)  the public address the build's absolute URLs name
//   SMTP_URL                   a real mail server; without it the portal's mail (invitations,
//                              answers to access requests) goes to a local MailDev, on free
//                              ports unless MAIL_SMTP_PORT and MAIL_WEB_PORT name them
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import closeWithGrace from 'close-with-grace';

import { buildServer, buildSiteIfStale, syncSources } from './build-if-stale.mjs';
import { hookSecretFile } from './hook.mjs';
import { readSeed, seedReaders, startAuthEmulator } from '../tools/lib/emulator.mjs';
import { startGate } from '../tools/lib/gate.mjs';
import { startMailCatcher } from '../tools/lib/mail-catcher.mjs';
import { assertPortFree } from '../tools/lib/ports.mjs';

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
const dataFolder = process.env.DATA_DIR ?? 'data';
const mailSmtpPort = portSetting('MAIL_SMTP_PORT', undefined);
const mailWebPort = portSetting('MAIL_WEB_PORT', undefined);

let emulator;
let gate;
let mail;
const stopAll = async () => {
  await gate?.stop();
  await Promise.all([emulator?.stop(), mail?.stop()]);
};
// Ctrl-C reaches the terminal's process group (npm and this script), not the server or the
// emulator: each runs in a process group of its own and gets one signal, from here. The
// server closes gracefully on its first signal (close-with-grace: the last page views are
// written) and exits at once on a second, which a terminal's SIGINT and this script's
// SIGTERM together were.
closeWithGrace(
  {
    // Room for the emulator to stop and the server to write what it holds.
    delay: 30_000,
    // `npm start` passes the terminal's Ctrl-C on to this script, which has it already.
    onSecondSignal: () => {},
  },
  async ({ err }) => {
    if (err) console.error(`Stopping the portal after an unexpected error: ${err.stack ?? err}`);
    await stopAll();
  },
);

// The absolute URLs the build writes (canonical links, og:url, the sitemap, the feeds) name
// the address this portal serves, unless SITE_URL (or PUBLIC_URL) names the public one.
if (!process.env.SITE_URL && !process.env.PUBLIC_URL) {
  const shownHost = ['127.0.0.1', '0.0.0.0', '::'].includes(host) ? 'localhost' : host;
  process.env.SITE_URL = `http://${shownHost}:${port}`;
}

/** SOURCES_HOOK_SECRET, else the secret this data folder keeps (made at its first start). */
function hookSecret() {
  if (process.env.SOURCES_HOOK_SECRET) return process.env.SOURCES_HOOK_SECRET;
  const file = hookSecretFile(dataFolder);
  if (!existsSync(file)) {
    mkdirSync(dataFolder, { recursive: true });
    writeFileSync(file, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

try {
  buildServer();
  await syncSources();
  buildSiteIfStale();
  await assertPortFree(port, 'PORT');
  console.log(`Starting the Firebase Auth Emulator on port ${emulatorPort}…`);
  emulator = await startAuthEmulator({ port: emulatorPort, hubPort, loggingPort });
  await seedReaders(emulator.host, emulator.projectId);
  if (!process.env.SMTP_URL) mail = await startMailCatcher({ smtpPort: mailSmtpPort, webPort: mailWebPort });
  gate = await startGate({
    port,
    host,
    emulatorHost: emulator.host,
    projectId: emulator.projectId,
    // data/ (or DATA_DIR): npm start keeps its readers' trail across restarts.
    dataDir: null,
    stdout: 'inherit',
    group: true,
    // With the embedded database, "running" means every surface answers: until its schema is
    // ready, /admin and the token calls answer 503. A database of its own (DATABASE_URL) may
    // be down while the portal serves pages, so then listening is enough.
    until: process.env.DATABASE_URL ? 'listening' : 'database',
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // A few weeks of made-up reading by the demo readers, so /admin/insights is not empty
      // (marked as demo data; the server refuses it in production).
      DEMO_DATA: process.env.DEMO_DATA ?? '1',
      // Site releases as a deployment has them, in folders of the data folder: the build this
      // start made is published and served, a release hook's rebuild publishes the next, and
      // /admin/sources can serve an earlier one again.
      SITE_RELEASES: process.env.SITE_RELEASES ?? join(dataFolder, 'site-releases'),
      SITE_RELEASES_CACHE: process.env.SITE_RELEASES_CACHE ?? join(dataFolder, 'site-releases-served'),
      SITE_RELEASES_PUBLISH_AT_START: '1',
      // Release hooks on, signed with a secret of this data folder's own: `npm run hook`
      // sends one, and the rebuild it queues is built, published and served here.
      SOURCES_HOOK_SECRET: hookSecret(),
      ...(mail ? { SMTP_URL: mail.smtpUrl, MAIL_INBOX_URL: mail.inboxUrl } : {}),
    },
  });
} catch (error) {
  console.error(`Cannot start the portal: ${error.message}`);
  await stopAll();
  process.exit(1);
}

/** What each kind of demo reader shows, for the lines `npm start` prints. */
const DEMO_NOTES = {
  staff: 'reads everything, internal guidelines included',
  partner: 'reads the player, UI, navigation, layout and app docs and the blog; not the internal ones',
  admin:
    'reads everything and runs the portal at /admin (readers, organisations and licences, access requests, audit trail, insights)',
  'licensed partner (Northwind)':
    "reads the player core, manager, Shaka and Tizen adapters and Conviva tracking: its organisation's licence",
  'licensed partner (Lumen Media)':
    'reads the UI toolkit, the layout engine and the navigation guide, licensed until 28 February 2027',
  'licensed partner (Halcyon)': 'reads the blog and the demo app; its player licence ended on 31 October 2026',
  'licensed partner (Aurora, single sign-on)':
    'signs in with its organisation’s own provider (required): its password is refused with a message saying how',
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
  for (const reader of readers.filter((r) => r.oidc)) {
    lines.push(
      `    Single sign-on: enter ${reader.email} on the sign-in page, choose "Continue with …", then pick the account in the emulator's window (${reader.oidc.providerId})`,
    );
  }
  return lines.join('\n');
}

console.log(demoReaderLines());
console.log(`  Auth Emulator: http://${emulator.host}/ (project ${emulator.projectId})`);
console.log(
  mail
    ? `  Mail: invitations, access requests, licence notices and “what’s new” digests land in MailDev at ${mail.inboxUrl}/ (nothing leaves this machine)`
    : '  Mail: sent through the SMTP server in SMTP_URL',
);
console.log(
  `  Release hooks: npm run hook -- <source id> sends a signed one (secret: ${process.env.SOURCES_HOOK_SECRET ? 'SOURCES_HOOK_SECRET' : hookSecretFile(dataFolder)}); the rebuild shows in /admin/sources`,
);
console.log(
  '  Readers and groups: npm run readers -- list   (and: show, add, grant, revoke, disable, enable, remove, import, export)',
);
console.log(
  `  Data: ${process.env.DATABASE_URL ? 'the PostgreSQL server in DATABASE_URL' : `PGlite in ${process.env.DATA_DIR ?? 'data'}/pglite (embedded; nothing to install)`}\n`,
);
// The server ending by itself (a crash, a failed migration) ends the portal, with its code.
const code = await gate.exited;
if (!closeWithGrace.closing) {
  await Promise.all([emulator.stop(), mail?.stop()]);
  process.exit(code ?? 1);
}
