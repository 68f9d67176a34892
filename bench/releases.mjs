// A package release to the portal, as it is deployed (part `releases`): a builder and three
// gates on one PostgreSQL, Redis and s3rver (tools/lib/releases.mjs, as test:deploy runs
// them, without its load). A first release goes into the empty store; then each round, with
// the builder idle, a release is published to Verdaccio, hooked, and timed until all three
// gates serve it (`sources.release_to_live_s`, its median, and the p95 the goal is set on).
import { join } from 'node:path';

import { readSeed } from '../tools/lib/emulator.mjs';
import { startGate } from '../tools/lib/gate.mjs';
import { startPostgres } from '../tools/lib/postgres.mjs';
import { startRedis } from '../tools/lib/redis.mjs';
import { jobsServed, prepareBuilderSite, releaseSettings, startBuilder, timedRelease } from '../tools/lib/releases.mjs';
import { startS3rver } from '../tools/lib/s3rver.mjs';
import { signInWithPassword, startSession } from '../scripts/portal-client.mjs';
import { median, percentile, round, workDir } from './lib.mjs';
import { bootstrapInterval } from './stats.mjs';

const HOOK_SECRET = 'bench-release-hook-secret-0123456789';

/** `key`, its bootstrap interval (`.ci_low`, `.ci_high`) and its rounds (`_spread`), in seconds. */
function withInterval(key, seconds, statistic) {
  const interval = seconds.length > 1 ? bootstrapInterval(seconds, statistic) : null;
  return {
    [key]: round(statistic(seconds), 1),
    ...(interval && { [`${key}.ci_low`]: round(interval.low, 1), [`${key}.ci_high`]: round(interval.high, 1) }),
    [`${key}_spread`]: seconds,
  };
}

export async function measureReleases({ rounds, emulator, gateEnv, log }) {
  const dir = join(workDir, 'releases');
  const builderSite = await prepareBuilderSite({ dir: join(dir, 'builder'), log });
  const stops = [builderSite.verdaccio.stop];
  try {
    const [postgres, redis, s3] = await Promise.all([startPostgres(), startRedis(), startS3rver()]);
    stops.push(postgres.stop, redis.stop, s3.stop);
    const gates = [];
    for (let i = 0; i < 3; i++) {
      const gate = await startGate({
        emulatorHost: emulator.host,
        env: {
          ...gateEnv,
          ...releaseSettings(s3),
          SOURCES_HOOK_SECRET: HOOK_SECRET,
          // Six releases of one source within minutes: past the default of four an hour.
          SOURCES_REBUILDS_PER_HOUR: '100',
          DATABASE_URL: postgres.url,
          REDIS_URL: redis.url,
          SITE_RELEASES_CACHE: join(dir, 'release-cache', String(i)),
        },
      });
      gates.push(gate);
      stops.push(gate.stop);
    }
    const builder = startBuilder({ builderSite, s3, databaseUrl: postgres.url });
    stops.push(builder.stop);
    const admin = readSeed().find((reader) => reader.role === 'admin');
    const adminCookie = await startSession(
      gates[0].baseURL,
      await signInWithPassword(emulator.host, admin.email, admin.password),
    );
    const versions = Array.from({ length: rounds + 2 }, (_, i) => `3.${5 + i}.0`);
    const bases = gates.map((gate) => gate.baseURL);
    const release = async (version) => {
      const timed = await timedRelease({
        builderSite,
        hookURL: gates[0].baseURL,
        secret: HOOK_SECRET,
        bases,
        version,
        versions,
      });
      await jobsServed(gates[0].baseURL, adminCookie, timed.jobs, `release ${version}`);
      return timed.seconds;
    };
    const first = await release(versions[1]);
    log(`  first release ${versions[1]}, into the empty store: served by all three gates in ${first} s`);
    const seconds = [];
    for (const version of versions.slice(2)) {
      seconds.push(await release(version));
      log(`  release ${version}: published, hooked and served by all three gates in ${seconds.at(-1)} s`);
    }
    return {
      'sources.first_release_to_live_s': first,
      'sources.builder_first_build_s': builderSite.firstBuildS,
      ...withInterval('sources.release_to_live_s', seconds, median),
      ...withInterval('sources.release_to_live_p95_s', seconds, (values) => percentile(values, 95)),
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}
