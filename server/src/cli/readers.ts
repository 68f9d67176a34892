// `npm run readers -- <command>`: the administrator's command for readers and their groups.
// It talks to the Auth Emulator of a running `npm start` by default (AUTH_EMULATOR_PORT
// or FIREBASE_AUTH_EMULATOR_HOST move it), and to a real Firebase project with the
// production settings (NODE_ENV=production, FIREBASE_PROJECT_ID and service-account
// credentials, as for the server). Every change goes through the same audited service as
// /admin (readers-service.ts) and is written to the audit trail as `cli:<user>`. Exit
// codes: 0 done, 1 the identity service or the audit trail failed, 2 a wrong command,
// e-mail, group or setting. It never prints a token or a key. `import` and `export` go
// through the running portal's administration API instead (readers-api.ts).
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { policy } from '@portal/access';

import { firebaseAuth } from '../auth/firebase.js';
import { ReaderDirectory, ReaderError, type ReaderAccount } from '../auth/readers.js';
import { portalActionLink } from '../auth/action-links.js';
import { ConfigErrors, loadDatabaseConfig, loadIdentityConfig } from '../config.js';
import { auditInboxDir, leaveAuditEvent } from '../db/audit-inbox.js';
import { insertAuditEvents, type AuditEvent } from '../db/audit.js';
import { openDatabase, type Database, type DatabaseConfig } from '../db/database.js';
import { migrate } from '../db/migrations.js';
import { ReaderService, type Actor } from '../readers-service.js';
import { ApiCommandError, exportCommand, importCommand, portalUrlOf } from './readers-api.js';

const USAGE = `Usage: npm run readers -- <command> [--json]

  list [--group GROUP]          every reader, or those in GROUP
  show EMAIL                    one reader: groups and where they come from, status
  add EMAIL --groups G1,G2      create an account and print the portal's link to choose its password
  grant EMAIL GROUP             add a group
  revoke EMAIL GROUP            remove a group
  disable EMAIL                 disable the account; its sessions end within a minute
  enable EMAIL                  enable it again
  remove EMAIL                  delete the account; its sessions end within a minute
  import FILE [--apply]         readers' organisations and groups from a CSV (email,organisation,groups):
                                a preview of each row's change, or with --apply all rows (none if one is refused)
  export                        every reader's organisation and groups as that CSV

  --json                        print the answer (or the error) as one JSON object

Groups: ${policy.groups.map((group) => `${group.name} (${group.label})`).join(', ')}.
Every change is written to the audit trail as cli:<your user name>.
Against the emulator of a running "npm start" unless NODE_ENV=production with the server's Firebase settings.
import and export call the running portal's administration API instead (PORTAL_URL, else
http://localhost:$PORT or :3000) with PORTAL_TOKEN, an administrator's personal token of the admin scope.`;

/** The options each command takes (besides --json and --help). */
const COMMANDS: Record<string, { positionals: string[]; options: string[] }> = {
  list: { positionals: [], options: ['group'] },
  show: { positionals: ['EMAIL'], options: [] },
  add: { positionals: ['EMAIL'], options: ['groups'] },
  grant: { positionals: ['EMAIL', 'GROUP'], options: [] },
  revoke: { positionals: ['EMAIL', 'GROUP'], options: [] },
  disable: { positionals: ['EMAIL'], options: [] },
  enable: { positionals: ['EMAIL'], options: [] },
  remove: { positionals: ['EMAIL'], options: [] },
  import: { positionals: ['FILE'], options: ['apply'] },
  export: { positionals: [], options: [] },
};

class UsageError extends Error {}
/** The audit trail could not be written: a change is not made, or was made without its record. */
class AuditError extends Error {}

/** Where the command writes: the terminal, or a test's buffers. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

interface Parsed {
  command: string | undefined;
  positionals: string[];
  group?: string;
  groups?: string;
  apply: boolean;
  json: boolean;
  help: boolean;
}

function parse(args: string[]): Parsed {
  let values: { group?: string; groups?: string; apply?: boolean; json?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        group: { type: 'string' },
        groups: { type: 'string' },
        apply: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // parseArgs' own first sentence ("Unknown option '--grups'"), without its advice on "--".
    throw new UsageError((error as Error).message.split(/\. /)[0] ?? 'wrong arguments');
  }
  const [command, ...rest] = positionals;
  const parsed: Parsed = {
    command,
    positionals: rest,
    apply: values.apply === true,
    json: values.json === true,
    help: values.help === true,
  };
  if (values.group !== undefined) parsed.group = values.group;
  if (values.groups !== undefined) parsed.groups = values.groups;
  if (command === undefined || parsed.help || command === 'help') return parsed;
  const shape = COMMANDS[command];
  if (!shape) throw new UsageError(`unknown command "${command}"`);
  const missing = shape.positionals[rest.length];
  if (missing !== undefined) throw new UsageError(`missing ${missing}`);
  if (rest.length > shape.positionals.length)
    throw new UsageError(`${command} takes ${shape.positionals.join(' ') || 'no arguments'}, not "${rest.join(' ')}"`);
  for (const name of ['group', 'groups', 'apply'] as const)
    if (values[name] !== undefined && !shape.options.includes(name))
      throw new UsageError(`${command} takes no --${name}`);
  if (command === 'add' && values.groups === undefined)
    throw new UsageError('add needs --groups, such as --groups partner');
  return parsed;
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

/** Where a change's event went: straight into the database, or into the running portal's inbox. */
type AuditReceipt = { to: 'database' } | { to: 'inbox'; file: string };

interface AuditSink {
  record(event: AuditEvent): Promise<AuditReceipt>;
  database: Database | null;
  close(): Promise<void>;
}

/**
 * Opens the audit trail before any change, so that a change is never made without its
 * record: PostgreSQL directly (any number of processes may write it); with PGlite, the
 * inbox beside its folder, which the portal writes into the trail (db/audit-inbox.ts).
 */
async function openAuditSink(database: DatabaseConfig): Promise<AuditSink> {
  const inbox = auditInboxDir(database);
  if (inbox !== null) {
    try {
      await mkdir(inbox, { recursive: true });
      await access(inbox, constants.W_OK);
    } catch (error) {
      throw new AuditError(`cannot write the audit inbox ${inbox}: ${(error as Error).message}`);
    }
    return {
      record: async (event) => ({ to: 'inbox', file: await leaveAuditEvent(inbox, event) }),
      database: null,
      close: () => Promise.resolve(),
    };
  }
  const db = await openDatabase(database);
  try {
    await Promise.race([
      migrate(db),
      new Promise((_resolve, reject) => setTimeout(() => reject(new Error('no answer in 10 s')), 10_000).unref()),
    ]);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw new AuditError(`cannot reach the database of the audit trail: ${(error as Error).message.split('\n')[0]}`);
  }
  return {
    record: async (event) => {
      await insertAuditEvents(db, [event]);
      return { to: 'database' };
    },
    database: db,
    close: () => db.close(),
  };
}

/** The person at the command line, as the audit trail names them. */
function commandLineActor(args: string[], record: Actor['record']): Actor {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    // A container user without an entry in /etc/passwd.
    user = process.env.USER ?? `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  return {
    uid: null,
    email: `cli:${user}`,
    detail: { via: 'readers command', command: `readers ${args.join(' ')}`, user, host: hostname() },
    record,
  };
}

interface Context {
  directory: ReaderDirectory;
  /** The portal readers open (PUBLIC_URL, else PORTAL_URL, else http://localhost:$PORT): its /login/action page sets a first password. */
  portalUrl: string;
  /** Opens the audit trail and the service that writes to it (for the commands that change something). */
  changes(): Promise<{ service: ReaderService; by: Actor; receipts: AuditReceipt[] }>;
}

/** Runs a parsed command; returns the text lines and the JSON answer. */
async function run(parsed: Parsed, ctx: Context): Promise<{ lines: string[]; json: unknown }> {
  const { command, positionals } = parsed;
  const email = positionals[0] as string;
  const audit = (receipts: AuditReceipt[]): { lines: string[]; json: AuditReceipt | null } => {
    const receipt = receipts[0];
    if (!receipt) return { lines: [], json: null };
    return {
      lines: [
        receipt.to === 'database'
          ? 'Written to the audit trail.'
          : `Left for the audit trail in ${receipt.file}; the portal writes it to the trail within a second while it runs.`,
      ],
      json: receipt,
    };
  };
  switch (command) {
    case 'list': {
      const readers = await ctx.directory.list(parsed.group);
      return { lines: table(readers), json: { readers } };
    }
    case 'show': {
      const reader = await ctx.directory.find(email);
      return { lines: describe(reader), json: { reader } };
    }
    case 'add': {
      const groups = (parsed.groups ?? '').split(',').map((group) => group.trim());
      ReaderDirectory.checkGroups(groups);
      const { service, by, receipts } = await ctx.changes();
      const { account, passwordLink } = await service.invite(by, email, groups);
      // The portal's own page, as the invitation mail links it: "Choose your password", then signed in.
      const link = portalActionLink(passwordLink, ctx.portalUrl, { invite: true });
      const lines = [
        `Created ${account.email} in ${account.groups.join(', ')}.`,
        `Send the reader this link to choose a password on the portal (it works once):`,
        `  ${link}`,
      ];
      const recorded = audit(receipts);
      return {
        lines: [...lines, ...recorded.lines],
        json: { reader: account, passwordLink: link, audit: recorded.json },
      };
    }
    case 'grant':
    case 'revoke': {
      const group = positionals[1] as string;
      ReaderDirectory.checkGroups([group]);
      const { service, by, receipts } = await ctx.changes();
      const { before, after, changed } =
        command === 'grant' ? await service.grant(by, email, group) : await service.revoke(by, email, group);
      const recorded = audit(receipts);
      const line = changed
        ? `${email}: groups ${before.groups.join(', ') || 'none'} → ${after.groups.join(', ') || 'none (no access)'}. Open sessions follow within a minute.`
        : `${email} ${command === 'grant' ? 'was already' : 'was not'} in ${group}; nothing changed.`;
      return { lines: [line, ...recorded.lines], json: { before, after, changed, audit: recorded.json } };
    }
    case 'disable':
    case 'enable': {
      const uid = (await ctx.directory.find(email)).uid;
      const { service, by, receipts } = await ctx.changes();
      const { before, after } = await service.setDisabled(by, uid, command === 'disable');
      const recorded = audit(receipts);
      const line =
        command === 'disable'
          ? `${after.email} is disabled; their sessions end within a minute.`
          : `${after.email} is enabled.`;
      return { lines: [line, ...recorded.lines], json: { before, after, audit: recorded.json } };
    }
    case 'remove': {
      const uid = (await ctx.directory.find(email)).uid;
      const { service, by, receipts } = await ctx.changes();
      const removed = await service.remove(by, uid);
      const recorded = audit(receipts);
      return {
        lines: [`${removed.email ?? uid} is removed; their sessions end within a minute.`, ...recorded.lines],
        json: { removed, audit: recorded.json },
      };
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/**
 * Runs one readers command with `args` (`['grant', 'a@b.example', 'partner']`) against the
 * identity service and the database the environment names. Returns the exit code.
 */
export async function runReadersCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Output = {
    out: (line) => void process.stdout.write(line + '\n'),
    err: (line) => void process.stderr.write(line + '\n'),
  },
  cwd = process.cwd(),
): Promise<number> {
  // Known before parsing, so that even a wrong command answers in JSON when asked to.
  const json = args.includes('--json');
  const fail = (code: number, message: string, usage = false): number => {
    if (json) io.err(JSON.stringify({ error: message }));
    else io.err(`readers: ${message}${usage ? `\n\n${USAGE}` : ''}`);
    return code;
  };
  let parsed: Parsed;
  try {
    parsed = parse(args);
  } catch (error) {
    return fail(2, (error as Error).message, true);
  }
  if (parsed.command === undefined || parsed.command === 'help' || parsed.help) {
    if (json) io.out(JSON.stringify({ usage: USAGE }));
    else io.out(USAGE);
    return parsed.command === undefined && !parsed.help ? fail(2, 'name a command') : 0;
  }

  // Through the portal's administration API: the same routes as the organisations page.
  if (parsed.command === 'import' || parsed.command === 'export') {
    try {
      return parsed.command === 'import'
        ? await importCommand(parsed.positionals[0] as string, parsed.apply, env, io, json)
        : await exportCommand(env, io);
    } catch (error) {
      if (error instanceof ApiCommandError) return fail(error.exitCode, error.message);
      throw error;
    }
  }

  const errors = new ConfigErrors();
  const config = loadIdentityConfig(env, errors, cwd);
  const database = loadDatabaseConfig(env, errors, cwd);
  if (errors.messages.length > 0) return fail(2, errors.messages.join('; '));
  if (config.emulatorHost) {
    const reachable = await fetch(`http://${config.emulatorHost}/`, { signal: AbortSignal.timeout(3000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (!reachable)
      return fail(
        2,
        `cannot reach the Auth Emulator at ${config.emulatorHost}; start the portal with "npm start" first, or set AUTH_EMULATOR_PORT to its port`,
      );
  }
  // What the server's entry does: the Admin SDK finds the emulator only through this.
  if (config.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = config.emulatorHost;
  else delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const { auth, close } = firebaseAuth(config);
  const directory = new ReaderDirectory(auth);
  let sink: AuditSink | null = null;
  try {
    const ctx: Context = {
      directory,
      portalUrl: env.PUBLIC_URL?.trim().replace(/\/+$/, '') || portalUrlOf(env),
      changes: async () => {
        sink = await openAuditSink(database);
        const opened: AuditSink = sink;
        const receipts: AuditReceipt[] = [];
        const by = commandLineActor(args, async (event) => {
          try {
            receipts.push(await opened.record(event));
          } catch (error) {
            throw new AuditError(
              `the change was made, but its audit event could not be written: ${(error as Error).message.split('\n')[0]}`,
            );
          }
        });
        return { service: new ReaderService({ directory, database: () => opened.database }), by, receipts };
      },
    };
    const { lines, json: answer } = await run(parsed, ctx);
    if (json) io.out(JSON.stringify(answer, null, 2));
    else lines.forEach((line) => io.out(line));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return fail(2, error.message, true);
    if (error instanceof ReaderError) return fail(2, error.message);
    if (error instanceof AuditError) return fail(1, error.message);
    // The identity service's own message, without its stack or request details.
    return fail(1, `the identity service failed: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    await (sink as AuditSink | null)?.close();
    await close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(await runReadersCommand(process.argv.slice(2)));
