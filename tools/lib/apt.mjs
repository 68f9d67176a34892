// Debian packages the benchmark and `test:deploy` run beside the portal (nginx, wrk, podman,
// redis-server, PostgreSQL, …): found, or installed with apt-get when this is root.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A command's absolute path, looking in the sbin folders too (nginx lives in /usr/sbin). */
export function findCommand(command, { path = process.env.PATH } = {}) {
  const folders = [...(path ?? '').split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const folder of folders) {
    if (folder && existsSync(join(folder, command))) return join(folder, command);
  }
  return null;
}

function aptGet(args) {
  return spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/**
 * Makes sure each wanted package is installed: `{ pkg, command }` is found by its command,
 * `{ pkg, present }` by a test of its own. Missing ones are installed with apt-get when it
 * may (as root; the package lists refreshed only if the first try fails); otherwise it
 * throws with the command to run. Returns the absolute path of each wanted command.
 */
export function ensureDebianPackages(
  wanted,
  { purpose = 'This', mayInstall = process.getuid?.() === 0 && findCommand('apt-get') !== null } = {},
) {
  const isThere = (tool) => (tool.present ? tool.present() : findCommand(tool.command) !== null);
  const missing = wanted.filter((tool) => !isThere(tool)).map((tool) => tool.pkg);
  if (missing.length > 0) {
    if (!mayInstall) {
      throw new Error(
        `${purpose} needs Debian's ${missing.join(', ')}. Install them: sudo apt-get install -y ${missing.join(' ')}`,
      );
    }
    console.log(`Installing ${missing.join(', ')} from Debian's packages (apt-get)…`);
    const install = ['install', '-y', '-qq', ...missing];
    if (aptGet(install).status !== 0 && (aptGet(['update', '-qq']).status !== 0 || aptGet(install).status !== 0)) {
      throw new Error(`apt-get could not install ${missing.join(' ')}`);
    }
  }
  const paths = {};
  for (const tool of wanted) {
    if (!tool.command) continue;
    const path = findCommand(tool.command);
    if (path === null) throw new Error(`${tool.pkg} is installed but ${tool.command} is not on the PATH`);
    paths[tool.command] = path;
  }
  return paths;
}
