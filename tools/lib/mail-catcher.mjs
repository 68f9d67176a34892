// Starts MailDev (the `maildev` package) as the development mail catcher: an SMTP server and
// a web inbox on free loopback ports, keeping messages in memory. `npm start` and the tests
// send the portal's mail to it (SMTP_URL), so invitations and answers to access requests can
// be read end to end without a real mail server.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from './ports.mjs';
import { answers, startProcess } from './process.mjs';

// Its command, by path: the package exports no module to find it by. A dev dependency of the
// repository's root, so in the root's node_modules.
const MAILDEV = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'node_modules',
  'maildev',
  'dist',
  'bin',
  'maildev.js',
);

/** Starts MailDev; its SMTP URL, its web inbox, `messages()` (the REST API's list) and `stop()`. */
export async function startMailCatcher({ smtpPort, webPort } = {}) {
  const smtp = smtpPort ?? (await freePort());
  const web = webPort ?? (await freePort());
  const server = startProcess(
    process.execPath,
    [MAILDEV, '--smtp', String(smtp), '--ip', '127.0.0.1', '--web', String(web), '--web-ip', '127.0.0.1', '--silent'],
    { name: `MailDev on ports ${smtp} (SMTP) and ${web} (web)`, stdout: 'collect', stderr: 'collect', group: true },
  );
  const inboxUrl = `http://127.0.0.1:${web}`;
  await server.waitUntil(answers(`${inboxUrl}/api/healthz`), { timeoutMs: 15_000, intervalMs: 100 });
  return {
    smtpUrl: `smtp://127.0.0.1:${smtp}`,
    inboxUrl,
    /** Every message caught so far: MailDev's own JSON (to, subject, text, …). */
    async messages() {
      const response = await fetch(`${inboxUrl}/api/email`);
      if (!response.ok) throw new Error(`MailDev answered ${response.status}`);
      return response.json();
    },
    stop: () => server.stop(),
  };
}
