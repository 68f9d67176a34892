import type { Database } from '../db/database.js';
import { oneAtATime } from '../one-at-a-time.js';
import type { LiveSite } from '../site.js';
import {
  BundleError,
  collectBundles,
  fetchBundle,
  publishBundle,
  pruneBundleCache,
  type PublishedBundle,
} from './bundle.js';
import type { ObjectStore } from './object-store.js';

export interface SiteRelease {
  id: number;
  bundle: string;
  files: number;
  bytes: number;
  sources: Record<string, string[]>;
  job: string;
  builtAt: string;
  state: 'live' | 'kept' | 'collected';
  liveSince: string | null;
  madeLiveBy: string | null;
}

/** What this gate serves of the releases, for /admin/sources and /readyz's log. */
export interface ReleaseFollowing {
  /** The live release's bundle this gate serves; null while it serves SITE_DIR's build. */
  serving: string | null;
  /** The last release this gate could not serve, and why; null when it serves the live one. */
  refused: { bundle: string; error: string; at: string } | null;
}

interface Row {
  id: string;
  bundle: string;
  files: number;
  bytes: string;
  sources: Record<string, string[]>;
  job: string;
  built_at: Date | string;
  state: SiteRelease['state'];
  live_since: Date | string | null;
  made_live_by: string | null;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

function releaseOf(row: Row): SiteRelease {
  return {
    id: Number(row.id),
    bundle: row.bundle,
    files: row.files,
    bytes: Number(row.bytes),
    sources: row.sources,
    job: row.job,
    builtAt: iso(row.built_at) as string,
    state: row.state,
    liveSince: iso(row.live_since),
    madeLiveBy: row.made_live_by,
  };
}

/** An administrator's request about releases that cannot be done: its words go into the 4xx answer. */
export class ReleaseRefused extends Error {
  constructor(
    message: string,
    readonly status: 404 | 409,
  ) {
    super(message);
  }
}

export interface SiteReleasesOptions {
  db: Database;
  store: ObjectStore;
  /** Where fetched releases become folders this gate serves. */
  cacheDir: string;
  /** The site this process serves; null in the builder, which only publishes. */
  site: LiveSite | null;
  /** Releases kept besides the live one. */
  keep: number;
  log: {
    info(object: object, message: string): void;
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  };
}

/**
 * The site releases as one gate sees them: it publishes a build (after a rebuild, or at
 * `npm start`), makes one live (a rollback), and follows the live one, fetching its bundle,
 * checking every hash and swapping it in whole (LiveSite.reload). A release that fails its
 * checks is refused and reported; the gate keeps serving what it serves.
 */
export class SiteReleases {
  private state: ReleaseFollowing = { serving: null, refused: null };

  constructor(private readonly options: SiteReleasesOptions) {}

  get status(): ReleaseFollowing {
    return { ...this.state };
  }

  /** Every release the database remembers, newest first. */
  async list(): Promise<SiteRelease[]> {
    const rows = await this.options.db.query<Row>('select * from site_releases order by built_at desc, id desc');
    return rows.map(releaseOf);
  }

  async live(): Promise<SiteRelease | null> {
    const [row] = await this.options.db.query<Row>("select * from site_releases where state = 'live'");
    return row ? releaseOf(row) : null;
  }

  /**
   * Publishes the build in `buildDir` and makes it live (one transaction: the live release
   * is replaced, never absent), then collects what is beyond the kept releases. Publishing
   * the build that is live already changes nothing.
   */
  async publish(
    buildDir: string,
    made: { job: string; sources: Record<string, string[]>; by: string | null },
  ): Promise<{ release: SiteRelease; bundle: PublishedBundle; made: boolean }> {
    const { store } = this.options;
    const bundle = await publishBundle(store, buildDir).catch((error: unknown) => {
      // Cut off midway: blobs no manifest names, collected later; no release, nothing made live.
      throw new Error(
        `the build could not be published to the site release store ${store.where} (${(error as Error).message}): no release was made, and the live one stays`,
        { cause: error },
      );
    });
    let fresh = true;
    const release = await this.options.db.transaction(async (tx) => {
      const [existing] = await tx.query<Row>('select * from site_releases where bundle = $1', [bundle.id]);
      if (existing?.state === 'live') {
        fresh = false;
        return existing;
      }
      await tx.query("update site_releases set state = 'kept' where state = 'live'");
      const [row] = await tx.query<Row>(
        `insert into site_releases (bundle, files, bytes, sources, job, state, live_since, made_live_by)
           values ($1, $2, $3, $4, $5, 'live', now(), $6)
         on conflict (bundle) do update
           set state = 'live', live_since = now(), made_live_by = excluded.made_live_by
         returning *`,
        [bundle.id, bundle.files, bundle.bytes, made.sources, made.job, made.by],
      );
      return row as Row;
    });
    this.options.log.info(
      { release: bundle.id, files: bundle.files, bytes: bundle.bytes, uploaded: bundle.uploaded },
      'site release published',
    );
    await this.collect();
    return { release: releaseOf(release), bundle, made: fresh };
  }

  /** Makes an earlier release live again (a rollback, or forward again). */
  async makeLive(id: number, by: string): Promise<{ release: SiteRelease; previous: SiteRelease | null }> {
    const [wanted] = await this.options.db.query<Row>('select * from site_releases where id = $1', [id]);
    if (!wanted) throw new ReleaseRefused(`There is no site release ${id}.`, 404);
    if (wanted.state === 'collected')
      throw new ReleaseRefused(
        `Site release ${id} has been collected from the store: it can no longer be served.`,
        409,
      );
    // Checked before it is made live: a release the store cannot give whole is never made live.
    await fetchBundle(this.options.store, wanted.bundle, this.options.cacheDir);
    return this.options.db.transaction(async (tx) => {
      const [previous] = await tx.query<Row>("select * from site_releases where state = 'live'");
      await tx.query("update site_releases set state = 'kept' where state = 'live' and id <> $1", [id]);
      const [row] = await tx.query<Row>(
        "update site_releases set state = 'live', live_since = now(), made_live_by = $2 where id = $1 returning *",
        [id, by],
      );
      return { release: releaseOf(row as Row), previous: previous ? releaseOf(previous) : null };
    });
  }

  /**
   * Serves the live release, if it is not served yet: one follow at a time, and one more
   * after it when asked meanwhile (a release made live while the last was fetched).
   */
  readonly follow = oneAtATime(() => this.followOnce());

  private async followOnce(): Promise<void> {
    const { site } = this.options;
    if (!site) return;
    const live = await this.live();
    if (!live || live.bundle === this.state.serving) return;
    try {
      const dir = await fetchBundle(this.options.store, live.bundle, this.options.cacheDir);
      const outcome = await site.reload(dir);
      this.state = { serving: live.bundle, refused: null };
      this.options.log.info({ release: live.bundle, id: live.id, outcome }, 'serving the live site release');
      void pruneBundleCache(this.options.cacheDir, [live.bundle]).catch((error: unknown) =>
        this.options.log.warn({ err: error }, 'could not prune the site release cache'),
      );
    } catch (error) {
      const message = (error as Error).message;
      // Said once per release and reason, not at every check.
      if (this.state.refused?.bundle !== live.bundle || this.state.refused.error !== message)
        this.options.log.error(
          { release: live.bundle, id: live.id, err: error, refused: error instanceof BundleError },
          'could not serve the live site release; serving the one before it',
        );
      this.state = {
        serving: this.state.serving,
        refused: { bundle: live.bundle, error: message, at: new Date().toISOString() },
      };
    }
  }

  /** Deletes from the store the releases beyond the live one and the newest `keep` others. */
  private async collect(): Promise<void> {
    const rows = await this.options.db.query<Row>(
      "select * from site_releases where state <> 'collected' order by (state = 'live') desc, built_at desc, id desc",
    );
    const keep = rows.slice(0, this.options.keep + 1);
    const drop = rows.slice(this.options.keep + 1);
    if (drop.length === 0) return;
    const collected = await collectBundles(
      this.options.store,
      keep.map((row) => row.bundle),
    );
    await this.options.db.query("update site_releases set state = 'collected' where id = any($1::bigint[])", [
      drop.map((row) => row.id),
    ]);
    this.options.log.info({ ...collected, kept: keep.length }, 'old site releases collected');
  }
}
