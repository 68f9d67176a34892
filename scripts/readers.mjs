// `npm run readers -- <command>`: runs the readers command of the gate server
// (server/src/cli/readers.ts), building the server first if it has not been built.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { buildServer } from './build-if-stale.mjs';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'server', 'dist', 'cli', 'readers.js');
if (!existsSync(cli)) buildServer({ quiet: true });
const { runReadersCommand } = await import(pathToFileURL(cli).href);
process.exit(await runReadersCommand(process.argv.slice(2)));
