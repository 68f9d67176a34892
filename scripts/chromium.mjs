// Debian's Chromium, never a downloaded browser build, for the browser tests and the
// benchmarks. The flags keep it from calling home on a machine without network access
// and let it run as root in CI.
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function assertChromiumInstalled() {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `No Chromium at ${chromiumPath}. Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
}
