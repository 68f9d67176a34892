// Release hooks: GitHub's release and push events, and a registry's publish event in
// GitHub's package-event shape, each signed with the hook secret; a hook queues a rebuild of
// the sources it names, and the finished build is served on every replica (routes to
// Rebuilds and LiveSite). A delivery is taken once, while its signed dates are recent, and
// at a bounded rate per source (sources/deliveries.ts, sources/delivery-date.ts). The
// administration's view of the sources is routes/admin/sources.ts.
import { ErrorAnswer, HookAnswer, type RebuildJob } from '@portal/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Webhooks } from '@octokit/webhooks';
import Type from 'typebox';

import type { BuildQueue } from '../sources/build-queue.js';
import { type Admission, Deliveries } from '../sources/deliveries.js';
import { ageRefusal } from '../sources/delivery-date.js';
import { readCacheState, sourcesOfPackage, sourcesOfRepository } from '../sources/state.js';

/** GitHub sends up to 25 MB; a release or push event is a few tens of kilobytes. */
const HOOK_BODY_LIMIT = 1024 * 1024;

interface HookPayload {
  /** The source to rebuild, named where the signature covers it (a URL's query is not signed). */
  source?: unknown;
  ref?: string;
  repository?: { full_name?: string; clone_url?: string; html_url?: string };
  release?: { tag_name?: string };
  package?: PackagePayload;
  registry_package?: PackagePayload;
}
interface PackagePayload {
  name?: string;
  namespace?: string;
  package_type?: string;
  package_version?: { version?: string };
}

type Decision = { ignored: string } | { sources: string[]; reason: string };

/** Which sources an event names, by its repository or package, and why; or why it names none. */
function decide(event: string, payload: HookPayload, state: Awaited<ReturnType<typeof readCacheState>>): Decision {
  if (event === 'ping') return { ignored: 'ping: the hook is set up' };
  if (event === 'release' || event === 'push') {
    if (event === 'push' && !payload.ref?.startsWith('refs/tags/'))
      return { ignored: 'a push to a branch: releases come from tags' };
    const repository = payload.repository;
    const names = [
      repository?.full_name && `github.com/${repository.full_name}`,
      repository?.clone_url,
      repository?.html_url,
    ].filter((name): name is string => typeof name === 'string' && name.length > 0);
    if (names.length === 0) return { ignored: `a ${event} event without a repository` };
    const what = event === 'release' ? `release ${payload.release?.tag_name ?? ''}` : `tag ${payload.ref?.slice(10)}`;
    return {
      sources: [...new Set(names.flatMap((name) => sourcesOfRepository(state, name)))],
      reason: `${what.trim()} of ${repository?.full_name ?? names[0]}`,
    };
  }
  if (event === 'package' || event === 'registry_package') {
    const found = payload.package ?? payload.registry_package;
    if (!found?.name) return { ignored: `a ${event} event without a package` };
    if (found.package_type && found.package_type.toLowerCase() !== 'npm')
      return { ignored: `a ${found.package_type} package: only npm packages are synced` };
    // GitHub names an npm package without its scope and gives the scope as the namespace.
    const name = found.name.startsWith('@') || !found.namespace ? found.name : `@${found.namespace}/${found.name}`;
    return {
      sources: [...new Set([name, found.name].flatMap((spelling) => sourcesOfPackage(state, spelling)))],
      reason: `publish of ${name}${found.package_version?.version ? `@${found.package_version.version}` : ''}`,
    };
  }
  return { ignored: `${event} events do not sync` };
}

// `source` is read only to be refused with its reason: one signed delivery must not rebuild any source.
const HookQuery = Type.Object(
  { source: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

/** A source's id as site/sources.yaml spells it. */
const SOURCE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** GitHub's delivery ids are GUIDs; a registry's may be any short token. */
const DELIVERY_ID = /^[\w.:-]{1,200}$/;

const releaseHooks: FastifyPluginAsyncTypebox = async (app) => {
  const { config, store, rebuilds, clock } = app;
  const { hookSecret: secret, hookMaxAgeSeconds, rebuildsPerHour, deliveryMemoryDays } = config.sources;
  const webhooks = secret === null ? null : new Webhooks({ secret });
  const deliveries = new Deliveries({ db: () => store.db, clock, rebuildsPerHour, memoryDays: deliveryMemoryDays });

  // The signature is over the bytes sent: the body is kept as text (this file's routes only) and parsed after the check.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: HOOK_BODY_LIMIT }, (_r, body, done) =>
    done(null, body),
  );
  app.post(
    '/api/hooks/sync',
    {
      schema: {
        querystring: HookQuery,
        response: {
          200: HookAnswer,
          202: HookAnswer,
          400: ErrorAnswer,
          401: ErrorAnswer,
          404: ErrorAnswer,
          409: ErrorAnswer,
          422: ErrorAnswer,
          429: ErrorAnswer,
          503: ErrorAnswer,
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      if (webhooks === null || rebuilds === null)
        return reply.code(404).send({ error: 'Release hooks are off: the gate has no SOURCES_HOOK_SECRET' });
      if (request.query.source !== undefined)
        return reply.code(400).send({
          error: 'The URL names a source, but no signature covers a URL: name it in the signed body ("source": "<id>")',
        });
      const signature = request.headers['x-hub-signature-256'];
      if (typeof signature !== 'string')
        return reply.code(401).send({ error: 'No X-Hub-Signature-256 header: sign the body with the hook secret' });
      const body = typeof request.body === 'string' ? request.body : '';
      const valid = await webhooks.verify(body, signature).catch(() => false);
      if (!valid) return reply.code(401).send({ error: 'The signature does not match the body and the hook secret' });
      const event = request.headers['x-github-event'];
      if (typeof event !== 'string' || event === '')
        return reply.code(400).send({ error: 'No X-GitHub-Event header: say which event this is' });
      const deliveryId = request.headers['x-github-delivery'] ?? null;
      if (deliveryId !== null && (typeof deliveryId !== 'string' || !DELIVERY_ID.test(deliveryId)))
        return reply
          .code(400)
          .send({ error: 'X-GitHub-Delivery must be one id of letters, digits, dots, colons and dashes' });
      let payload: HookPayload;
      try {
        payload = JSON.parse(body) as HookPayload;
      } catch {
        return reply.code(400).send({ error: 'The body is not JSON' });
      }
      if (typeof payload !== 'object' || payload === null)
        return reply.code(400).send({ error: 'The body is not a JSON object' });
      const late = ageRefusal(event, payload, clock(), hookMaxAgeSeconds);
      if (late !== null) return reply.code(400).send({ error: late });
      if (payload.source !== undefined && (typeof payload.source !== 'string' || !SOURCE_ID.test(payload.source)))
        return reply.code(400).send({ error: 'The body\'s "source" must be a source id of site/sources.yaml' });

      const state = await readCacheState(config.sources.cacheDir);
      const decision = decide(event, payload, state);
      if ('ignored' in decision) return reply.code(200).send({ jobs: [], ignored: decision.ignored });
      const source = payload.source;
      // A body may name its source: then the event only has to be a release.
      if (source !== undefined && !(source in state.sources))
        return reply.code(404).send({ error: `No source "${source}" has been synced (see site/sources.yaml)` });
      const sources = source !== undefined ? [source] : decision.sources;
      if (sources.length === 0)
        return reply
          .code(422)
          .send({ error: `No source of site/sources.yaml comes from this ${event} (${decision.reason})` });
      const unavailable = 'The portal cannot check this delivery against those it took: try again';
      if (!store.readyNow) return reply.code(503).send({ error: unavailable });

      let admission: Admission;
      let queue: BuildQueue;
      let waiting: Map<string, RebuildJob | undefined>;
      try {
        queue = await rebuilds.queue();
        waiting = new Map(await Promise.all(sources.map(async (id) => [id, await queue.waiting(id)] as const)));
        admission = await deliveries.admit({
          body,
          deliveryId,
          event,
          sources: sources.map((id) => ({ id, joins: waiting.get(id) !== undefined })),
        });
      } catch (error) {
        request.log.error({ err: error }, 'release hook: the delivery memory cannot be reached');
        return reply.code(503).send({ error: unavailable });
      }
      if ('replay' in admission)
        return reply.code(409).send({
          error:
            'This delivery was taken before (the same signed body, or the same X-GitHub-Delivery): a replay is refused',
        });
      if (!admission.admitted) {
        void reply.header('retry-after', String(admission.retryAfterSeconds));
        return reply.code(429).send({
          error: `The hooks of "${admission.limited}" started ${rebuildsPerHour} rebuilds in the last hour: try again in ${admission.retryAfterSeconds} s`,
        });
      }
      request.log.info({ event, sources, reason: decision.reason }, 'release hook');
      let requested: { job: RebuildJob; joined: boolean }[];
      try {
        requested = await Promise.all(sources.map((id) => queue.request({ source: id, reason: decision.reason })));
      } catch (error) {
        request.log.error({ err: error }, 'release hook: the build queue cannot be reached');
        await deliveries.forget(admission.digest).catch(() => undefined);
        return reply.code(503).send({ error: 'The portal cannot queue the build: try again' });
      }
      const jobs = requested.map(({ job }) => job);
      // A rebuild it meant to join may have started meanwhile: then this one started a rebuild too.
      const started = requested.filter(({ joined }) => !joined).map(({ job }) => job.source);
      if (started.length !== sources.filter((id) => waiting.get(id) === undefined).length)
        await deliveries
          .recount(admission.digest, started)
          .catch((error: unknown) => request.log.warn({ err: error }, 'release hook: its rebuilds were not recounted'));
      return reply.code(202).send({ jobs });
    },
  );
};
export default releaseHooks;
