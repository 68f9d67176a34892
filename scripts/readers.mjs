// `npm run readers -- <command>`: runs the readers command of the gate server
// (server/src/cli/readers.ts), building the server first when its build is missing or older
// than its sources: a stale build would change accounts the way an older command did.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { buildServer } from './build-if-stale.mjs';

const server = join(dirname(fileURLToPath(import.meta.url)), '..', 'server');
const cli = join(server, 'dist', 'cli', 'readers.js');

/** The newest modification time of the server's built sources under `dir` (tests are not built). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test') newest = Math.max(newest, newestSource(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(cli) || statSync(cli).mtimeMs < newestSource(join(server, 'src'))) buildServer({ quiet: true });
const { runReadersCommand } = await import(pathToFileURL(cli).href);
process.exit(await runReadersCommand(process.argv.slice(2)));
