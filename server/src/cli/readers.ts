// `npm run readers -- <command>`: the administrator's command for readers and their groups.
// It talks to the Auth Emulator of a running `npm start` by default (AUTH_EMULATOR_PORT
// or FIREBASE_AUTH_EMULATOR_HOST move it), and to a real Firebase project with the
// production settings (NODE_ENV=production, FIREBASE_PROJECT_ID and service-account
// credentials, as for the server). Exit codes: 0 done, 1 the identity service failed,
// 2 a wrong command, e-mail, group or setting. It never prints a token or a key.
import { fileURLToPath } from 'node:url';

import { policy } from '@portal/access';

import { firebaseAuth } from '../auth/firebase.js';
import { ReaderDirectory, ReaderError, type ReaderAccount } from '../auth/readers.js';
import { ConfigErrors, loadIdentityConfig } from '../config.js';

const USAGE = `Usage: npm run readers -- <command>

  list [--group GROUP]          every reader, or those in GROUP
  show EMAIL                    one reader: groups and where they come from, status
  add EMAIL --groups G1,G2      create an account and print a link to set its password
  grant EMAIL GROUP             add a group
  revoke EMAIL GROUP            remove a group
  disable EMAIL                 disable the account; its sessions end within a minute
  enable EMAIL                  enable it again

Groups: ${policy.groups.map((group) => `${group.name} (${group.label})`).join(', ')}.
Against the emulator of a running "npm start" unless NODE_ENV=production with the server's Firebase settings.`;

class UsageError extends Error {}

/** Where the command writes: the terminal, or a test's buffers. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

function describe(account: ReaderAccount): string[] {
  const fromDomain = account.groups.filter((group) => !account.claimedGroups.includes(group));
  return [
    `${account.email ?? '(no e-mail)'}`,
    `  uid:        ${account.uid}`,
    `  status:     ${account.disabled ? 'disabled' : 'active'}${account.emailVerified ? ', e-mail verified' : ', e-mail not verified'}`,
    `  groups:     ${account.groups.length > 0 ? account.groups.join(', ') : 'none (no access)'}`,
    `    set by an administrator: ${account.claimedGroups.join(', ') || 'none'}`,
    `    by the e-mail domain:    ${fromDomain.join(', ') || 'none'}`,
    `  sign-in:    ${account.providers.join(', ') || 'none yet'}`,
    `  created:    ${account.createdAt ?? 'unknown'}`,
    `  last seen:  ${account.lastSignInAt ?? 'never'}`,
  ];
}

function table(accounts: ReaderAccount[]): string[] {
  const rows = accounts.map((account) => [
    account.email ?? '(no e-mail)',
    account.groups.join(',') || '-',
    account.disabled ? 'disabled' : 'active',
    account.lastSignInAt ? new Date(account.lastSignInAt).toISOString().slice(0, 16).replace('T', ' ') : 'never',
  ]);
  const header = ['E-MAIL', 'GROUPS', 'STATUS', 'LAST SIGN-IN'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line), `${accounts.length} reader(s)`];
}

function argument(args: string[], index: number, name: string): string {
  const value = args[index];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`missing ${name}`);
  return value;
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index === -1) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value`);
  return value;
}

async function run(directory: ReaderDirectory, args: string[], write: (line: string) => void): Promise<void> {
  const [command] = args;
  switch (command) {
    case 'list': {
      table(await directory.list(option(args, '--group'))).forEach((line) => write(line));
      return;
    }
    case 'show':
      describe(await directory.find(argument(args, 1, 'EMAIL'))).forEach((line) => write(line));
      return;
    case 'add': {
      const email = argument(args, 1, 'EMAIL');
      const groups = option(args, '--groups');
      if (groups === undefined) throw new UsageError('add needs --groups, such as --groups partner');
      const { account, passwordLink } = await directory.invite(
        email,
        groups.split(',').map((group) => group.trim()),
      );
      write(`Created ${account.email} in ${account.groups.join(', ')}.`);
      write(`Send the reader this link to set a password (it works once):`);
      write(`  ${passwordLink}`);
      if (passwordLink.includes('/emulator/action'))
        write('  (Auth Emulator: open it with &newPassword=<the new password> added to set the password.)');
      return;
    }
    case 'grant':
    case 'revoke': {
      const email = argument(args, 1, 'EMAIL');
      const group = argument(args, 2, 'GROUP');
      const { before, after } =
        command === 'grant' ? await directory.grant(email, group) : await directory.revoke(email, group);
      if (before.claimedGroups.join() === after.claimedGroups.join())
        write(`${email} ${command === 'grant' ? 'was already' : 'was not'} in ${group}; nothing changed.`);
      else
        write(
          `${email}: groups ${before.groups.join(', ') || 'none'} → ${after.groups.join(', ') || 'none (no access)'}. Open sessions follow within a minute.`,
        );
      return;
    }
    case 'disable':
    case 'enable': {
      const account = await directory.setDisabledByEmail(argument(args, 1, 'EMAIL'), command === 'disable');
      write(
        command === 'disable'
          ? `${account.email} is disabled; their sessions end within a minute.`
          : `${account.email} is enabled.`,
      );
      return;
    }
    case undefined:
    case 'help':
    case '--help':
      write(USAGE);
      if (command === undefined) throw new UsageError('name a command');
      return;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/**
 * Runs one readers command with `args` (`['grant', 'a@b.example', 'partner']`) against the
 * identity service the environment names. Returns the exit code.
 */
export async function runReadersCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Output = {
    out: (line) => void process.stdout.write(line + '\n'),
    err: (line) => void process.stderr.write(line + '\n'),
  },
): Promise<number> {
  const errors = new ConfigErrors();
  const config = loadIdentityConfig(env, errors, process.cwd());
  if (errors.messages.length > 0) {
    io.err(`readers: ${errors.messages.join('; ')}`);
    return 2;
  }
  if (config.emulatorHost) {
    const reachable = await fetch(`http://${config.emulatorHost}/`, { signal: AbortSignal.timeout(3000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (!reachable) {
      io.err(
        `readers: cannot reach the Auth Emulator at ${config.emulatorHost}; start the portal with "npm start" first, or set AUTH_EMULATOR_PORT to its port`,
      );
      return 2;
    }
  }
  // What the server's entry does: the Admin SDK finds the emulator only through this.
  if (config.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = config.emulatorHost;
  else delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const { auth, close } = firebaseAuth(config);
  try {
    await run(new ReaderDirectory(auth), args, io.out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`readers: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ReaderError) {
      io.err(`readers: ${error.message}`);
      return 2;
    }
    // The identity service's own message, without its stack or request details.
    io.err(`readers: the identity service failed: ${(error as Error).message.split('\n')[0]}`);
    return 1;
  } finally {
    await close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(await runReadersCommand(process.argv.slice(2)));
