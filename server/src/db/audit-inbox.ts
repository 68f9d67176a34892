import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { AUDIT_KINDS, type AuditEvent, type AuditKind } from './audit.js';
import type { DatabaseConfig } from './database.js';

/**
 * Where the readers command leaves its audit events for the portal when the database is
 * PGlite: one process at a time may open PGlite's folder, and a running portal holds it.
 * Beside that folder, so whoever may write the one may write the other.
 */
export function auditInboxDir(database: DatabaseConfig): string | null {
  return database.kind === 'pglite' && database.dataDir !== null
    ? join(dirname(database.dataDir), 'audit-inbox')
    : null;
}

/** Writes one event to the inbox, on disk before it returns (written, synced, then renamed into place). */
export async function leaveAuditEvent(dir: string, event: AuditEvent): Promise<string> {
  await mkdir(dir, { recursive: true });
  const name = `${Date.now()}-${randomUUID()}.json`;
  const partial = join(dir, `${name}.partial`);
  const file = await open(partial, 'wx', 0o600);
  try {
    await file.writeFile(JSON.stringify({ ...event, at: (event.at ?? new Date()).toISOString() }));
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(partial, join(dir, name));
  return join(dir, name);
}

const text = (value: unknown): value is string => typeof value === 'string' && value.length <= 1000;
const optionalText = (value: unknown): boolean => value === undefined || value === null || text(value);

/** An inbox file's event, or null when it is not one the readers command writes. */
export function parseInboxEvent(raw: string): AuditEvent | null {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { kind, at, actorUid, actorEmail, subjectUid, subjectEmail, groups, detail } = value;
  // Only an administrator's changes: an inbox file is never a sign-in or a page view.
  if (!text(kind) || !kind.startsWith('admin.') || !AUDIT_KINDS.includes(kind as AuditKind)) return null;
  if (!text(at) || Number.isNaN(Date.parse(at))) return null;
  if (!text(actorEmail) || ![actorUid, subjectUid, subjectEmail].every(optionalText)) return null;
  if (groups !== undefined && !(Array.isArray(groups) && groups.every(text))) return null;
  if (detail !== undefined && (typeof detail !== 'object' || detail === null || Array.isArray(detail))) return null;
  return {
    kind: kind as AuditKind,
    at: new Date(at),
    actorUid: (actorUid as string | null | undefined) ?? null,
    actorEmail,
    subjectUid: (subjectUid as string | null | undefined) ?? null,
    subjectEmail: (subjectEmail as string | null | undefined) ?? null,
    ...(groups ? { groups: groups as string[] } : {}),
    detail: (detail as Record<string, unknown> | undefined) ?? {},
  };
}

export interface AuditInboxOptions {
  dir: string;
  /** Writes events to the trail; a file is removed only after its event is written. */
  write(events: AuditEvent[]): Promise<void>;
  /** Whether the database can take writes now. */
  ready(): boolean;
  log: { warn(object: Record<string, unknown>, message: string): void };
  intervalMs?: number;
}

/**
 * The portal's side of the inbox: at start and every second, the events the readers
 * command left go into the audit trail, oldest first, and their files are removed. A file
 * that holds no such event is set aside (renamed `.rejected`) and logged.
 */
export class AuditInbox {
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<number> | null = null;

  constructor(private readonly options: AuditInboxOptions) {}

  start(): void {
    void this.drain();
    this.timer = setInterval(() => void this.drain(), this.options.intervalMs ?? 1000);
    this.timer.unref();
  }

  /** Writes what the inbox holds; resolves with how many events were written. */
  drain(): Promise<number> {
    this.draining ??= this.take()
      .catch((error: unknown) => {
        this.options.log.warn({ err: (error as Error).message }, 'could not read the audit inbox; retrying');
        return 0;
      })
      .finally(() => (this.draining = null));
    return this.draining;
  }

  private async take(): Promise<number> {
    if (!this.options.ready()) return 0;
    let names: string[];
    try {
      names = (await readdir(this.options.dir)).filter((name) => name.endsWith('.json')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    const taken: { path: string; event: AuditEvent }[] = [];
    for (const name of names) {
      const path = join(this.options.dir, name);
      const event = parseInboxEvent(await readFile(path, 'utf8'));
      if (event) taken.push({ path, event });
      else {
        this.options.log.warn({ file: path }, 'not an audit event of the readers command; set aside');
        await rename(path, `${path}.rejected`);
      }
    }
    if (taken.length === 0) return 0;
    try {
      await this.options.write(taken.map(({ event }) => event));
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'could not write the audit inbox; retrying');
      return 0;
    }
    await Promise.all(taken.map(({ path }) => unlink(path)));
    return taken.length;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.draining?.catch(() => undefined);
  }
}
