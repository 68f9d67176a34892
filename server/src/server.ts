import closeWithGrace from 'close-with-grace';

import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { loggerOptions } from './logging.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  const problems = error instanceof ConfigError ? error.problems : [(error as Error).message];
  console.error(`Cannot start the portal:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  process.exit(1);
}

// The Firebase Admin SDK finds the emulator only through the environment; the process entry
// sets it from the checked configuration, once, before the identity service is created.
if (config.identity.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = config.identity.emulatorHost;
else delete process.env.FIREBASE_AUTH_EMULATOR_HOST;

let app;
try {
  app = await buildApp({
    config,
    logger: loggerOptions(config.logLevel),
  });
} catch (error) {
  console.error(`Cannot start the portal: ${(error as Error).message}`);
  process.exit(1);
}

// Finish in-flight requests and write what the audit queue holds, then exit; a second
// signal, or 10 s, exits at once (close-with-grace).
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'stopping after an unexpected error');
  else app.log.info({ signal }, 'shutting down');
  await app.close();
});

await app.listen({ host: config.host, port: config.port });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const shownHost = ['127.0.0.1', '0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host;
app.log.info({ port, production: config.production, emulator: config.identity.emulatorHost }, 'listening');
if (config.identity.emulatorHost) {
  console.log(
    ['127.0.0.1', '::1', 'localhost'].includes(config.host)
      ? '\n  Development mode with the Auth Emulator: listening on this machine only (its tokens are unsigned).'
      : `\n  Development mode with the Auth Emulator, listening on ${config.host} (EMULATOR_ALLOW_REMOTE=1): anyone who reaches it can forge a sign-in.`,
  );
}
console.log(`\n  The portal is running at http://${shownHost}:${port}/  (Ctrl-C stops it)\n`);
