import { insertSearchEvents, type SearchEvent } from './activity.js';
import { deleteOlderThan, insertAuditEvents, type AuditEvent } from './audit.js';
import { openDatabase, type Database, type DatabaseConfig } from './database.js';
import { migrate } from './migrations.js';
import { pruneOAuthRecords, pruneUnauthorisedClients } from './oauth.js';
import { addPageViews, PageViewLog } from './page-views.js';
import { EventRecorder, type RecorderStats } from './recorder.js';

export interface StoreOptions {
  database: DatabaseConfig;
  /** Rows older than this are deleted daily. */
  retentionDays: number;
  /** Most events held while the database cannot be reached. */
  queueLimit?: number;
  log: {
    warn(object: Record<string, unknown>, message: string): void;
    info(object: Record<string, unknown>, message: string): void;
    error(object: Record<string, unknown>, message: string): void;
  };
  /** Seeds demo activity once the schema is ready (development only). */
  seed?: (db: Database) => Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The portal's store as the gate uses it: the database, migrated at start (and retried
 * until the database answers, so a database that cannot be reached never stops pages from
 * being served), the audit and search recorders and the page view log that write off the
 * request path, and the daily retention clean-up.
 */
export class Store {
  readonly audit: EventRecorder<AuditEvent>;
  readonly searches: EventRecorder<SearchEvent>;
  /** A session's page views (page-views.ts); other events go to `audit`. */
  readonly views: PageViewLog;
  private readonly ready: Promise<void>;
  private isReady = false;
  private closed = false;
  private readonly cleanup: NodeJS.Timeout;

  private constructor(
    readonly db: Database,
    private readonly options: StoreOptions,
  ) {
    this.ready = this.prepare();
    const whenReady = async <T>(write: (db: Database) => Promise<T>): Promise<T> => {
      if (!this.isReady) throw new Error('the database schema is not ready yet');
      return write(this.db);
    };
    this.audit = new EventRecorder<AuditEvent>({
      name: 'audit',
      write: (batch) => whenReady((db) => insertAuditEvents(db, batch)),
      limit: options.queueLimit,
      log: options.log,
    });
    this.views = new PageViewLog({
      write: (rows) => whenReady((db) => addPageViews(db, rows)),
      limit: options.queueLimit,
      log: options.log,
    });
    this.searches = new EventRecorder<SearchEvent>({
      name: 'searches',
      write: (batch) => whenReady((db) => insertSearchEvents(db, batch)),
      limit: options.queueLimit,
      log: options.log,
    });
    this.cleanup = setInterval(() => void this.applyRetention(), DAY_MS);
    this.cleanup.unref();
  }

  static async open(options: StoreOptions): Promise<Store> {
    return new Store(await openDatabase(options.database), options);
  }

  /** Migrates, retrying while the database cannot be reached; then seeds and cleans up once. */
  private async prepare(): Promise<void> {
    for (let attempt = 1; !this.closed; attempt++) {
      try {
        const report = await migrate(this.db);
        if (report.applied.length > 0)
          this.options.log.info({ applied: report.applied, database: this.db.kind }, 'database migrated');
        this.isReady = true;
        break;
      } catch (error) {
        if (attempt === 1 || attempt % 10 === 0)
          this.options.log.error(
            { err: (error as Error).message, attempt, database: this.db.kind },
            'cannot prepare the database; pages are served, events wait in memory, retrying',
          );
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * attempt, 15_000)).unref());
      }
    }
    if (!this.isReady) return;
    if (this.options.seed)
      await this.options
        .seed(this.db)
        .catch((error: unknown) =>
          this.options.log.warn({ err: (error as Error).message }, 'could not seed the demo activity'),
        );
    await this.applyRetention();
  }

  /** Resolves when the schema is ready (or never, while the database cannot be reached). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  get readyNow(): boolean {
    return this.isReady;
  }

  /** Deletes audit rows and searches older than the retention. */
  async applyRetention(now = new Date()): Promise<{ audit: number; searches: number } | null> {
    if (!this.isReady) return null;
    try {
      const deleted = await deleteOlderThan(this.db, new Date(now.getTime() - this.options.retentionDays * DAY_MS));
      // Expired OAuth codes, tokens, interactions and grants go too (they are refused anyway),
      // and clients no reader authorised within a day (registration also prunes them).
      await pruneOAuthRecords(this.db);
      await pruneUnauthorisedClients(this.db, now);
      if (deleted.audit + deleted.searches > 0)
        this.options.log.info({ ...deleted, retentionDays: this.options.retentionDays }, 'old activity deleted');
      return deleted;
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'the retention clean-up failed; it runs again tomorrow');
      return null;
    }
  }

  /** The audit trail's figures are its events' and its page views' together. */
  get stats(): { ready: boolean; audit: RecorderStats; searches: RecorderStats } {
    const events = this.audit.stats;
    const views = this.views.stats;
    return {
      ready: this.isReady,
      audit: {
        queued: events.queued + views.queued,
        written: events.written + views.written,
        dropped: events.dropped + views.dropped,
        failedWrites: events.failedWrites + views.failedWrites,
      },
      searches: this.searches.stats,
    };
  }

  /** Writes every event and page view waiting (tests, shutdown). */
  async flush(): Promise<void> {
    await Promise.all([this.audit.flush(true), this.views.flush(true), this.searches.flush(true)]);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.cleanup);
    await Promise.all([this.audit.close(), this.views.close(), this.searches.close()]);
    await this.db.close();
  }
}
