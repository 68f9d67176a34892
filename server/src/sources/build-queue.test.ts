// The build queue on the real databases (PGlite, and a PostgreSQL server with two builders):
// a request joins the one that waits for its source, jobs are worked one at a time even by
// two builders, and each job keeps what came of it, newest first.
import { describe, expect, it } from 'vitest';

import type { RebuildJob } from '@portal/contract';

import type { Database } from '../db/database.js';
import { freshDatabase, type DatabaseKind } from '../test/databases.js';
import { BuildQueue, type BuildOutcome } from './build-queue.js';

const quiet = { warn: () => undefined };
const open = (db: Database) => BuildQueue.open({ db, timeoutMs: 60_000, log: quiet });

async function ended(queue: BuildQueue, id: string): Promise<RebuildJob> {
  await expect
    .poll(async () => (await queue.list()).find((job) => job.id === id)?.state, { timeout: 15_000, interval: 100 })
    .toMatch(/^(served|unchanged|failed)$/);
  return (await queue.list()).find((job) => job.id === id) as RebuildJob;
}

describe.each<DatabaseKind>(['pglite', 'postgres'])('the build queue on %s', (kind) => {
  it('joins a waiting build of the same source, works each, and keeps what came of it', async () => {
    const db = await freshDatabase(kind);
    const queue = await open(db);
    try {
      const first = await queue.request({ source: 'nav', reason: 'release v3.4.0 of nav' });
      const joined = await queue.request({ source: 'nav', reason: 'release v3.4.1 of nav' });
      const other = await queue.request({ source: 'kit', reason: 'tag v1.2.0 of kit' });
      expect(first).toMatchObject({ joined: false, job: { source: 'nav', state: 'queued', startedAt: null } });
      expect(joined).toEqual({ joined: true, job: first.job });
      expect(other.joined).toBe(false);
      expect((await queue.waiting('nav'))?.id).toBe(first.job.id);
      expect(await queue.busy()).toBe(true);

      const outcomes: Record<string, () => Promise<BuildOutcome>> = {
        nav: async () => 'served',
        kit: async () => {
          throw new Error('The site build failed: a broken link\n(exit code 1)');
        },
      };
      const worked: string[] = [];
      await queue.work(async (job) => {
        worked.push(job.source);
        return (outcomes[job.source] as () => Promise<BuildOutcome>)();
      });
      expect(await ended(queue, first.job.id)).toMatchObject({ state: 'served', error: null });
      const failed = await ended(queue, other.job.id);
      expect(failed).toMatchObject({ state: 'failed', error: 'The site build failed: a broken link\n(exit code 1)' });
      expect(failed.startedAt).not.toBeNull();
      expect(failed.finishedAt).not.toBeNull();
      expect(worked.sort()).toEqual(['kit', 'nav']);

      // Nothing waits now: a new request is a new job, listed first.
      const again = await queue.request({ source: 'nav', reason: 'release v3.5.0 of nav' });
      expect(again.joined).toBe(false);
      expect(await ended(queue, again.job.id)).toMatchObject({ state: 'served' });
      expect((await queue.list()).map((job) => job.id)).toEqual([again.job.id, other.job.id, first.job.id]);
      expect(await queue.busy()).toBe(false);
    } finally {
      await queue.close();
      await db.close();
    }
  });
});

describe('two builders on one PostgreSQL server', () => {
  it('never build at the same time, and each job is worked once', async () => {
    const db = await freshDatabase('postgres');
    const [one, two] = [await open(db), await open(db)] as [BuildQueue, BuildQueue];
    try {
      let running = 0;
      let most = 0;
      const worked: string[] = [];
      const build = async (job: { source: string }): Promise<BuildOutcome> => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 300));
        worked.push(job.source);
        running -= 1;
        return 'served';
      };
      const jobs = await Promise.all(['a', 'b', 'c', 'd'].map((source) => one.request({ source, reason: source })));
      await one.work(build);
      await two.work(build);
      for (const { job } of jobs) await ended(one, job.id);
      expect(worked.sort()).toEqual(['a', 'b', 'c', 'd']);
      expect(most).toBe(1);
    } finally {
      await one.close();
      await two.close();
      await db.close();
    }
  });
});
