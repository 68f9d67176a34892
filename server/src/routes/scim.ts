import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

import { bearerToken } from '../auth/reader.js';
import type { Organisation } from '../db/licences.js';
import { recordScimCall, scimTokenBySecret, type ScimToken } from '../db/scim.js';
import { errorBody, listResponse, SCHEMAS, SCIM_MEDIA_TYPE, ScimError } from '../scim/protocol.js';
import { ScimService, type ScimCaller } from '../scim/service.js';

interface Provisioning {
  organisation: Organisation;
  token: ScimToken;
}

/** What a call did, for /admin's list of provisioning calls: the caller and, for a refusal, its detail. */
const calls = new WeakMap<FastifyRequest, Provisioning & { detail?: string }>();

type Query = { filter?: string; startIndex?: string; count?: string; excludedAttributes?: string };
type Id = { id: string };

const json = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).type(`${SCIM_MEDIA_TYPE}; charset=utf-8`).send(body);

/** The service provider's configuration (RFC 7643 §5): what a client may rely on here. */
const serviceProviderConfig = (origin: string) => ({
  schemas: [SCHEMAS.serviceProviderConfig],
  documentationUri: `${origin}/docs/guidelines/partner-provisioning/`,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: 200 },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'Bearer token',
      description:
        'A token an administrator of the portal minted for the organisation (Authorization: Bearer ndp_scim_…)',
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${origin}/scim/v2/ServiceProviderConfig` },
});

const resourceTypes = (origin: string) => [
  {
    schemas: [SCHEMAS.resourceType],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A reader of the portal at one of the organisation’s domains',
    schema: SCHEMAS.user,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${origin}/scim/v2/ResourceTypes/User` },
  },
  {
    schemas: [SCHEMAS.resourceType],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'A group of the portal that its administrators offered to the organisation',
    schema: SCHEMAS.group,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${origin}/scim/v2/ResourceTypes/Group` },
  },
];

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

/** The schemas (RFC 7643 §7) with the attributes the portal keeps; others of the core schema are accepted and ignored. */
const schemas = (origin: string) => [
  {
    schemas: [SCHEMAS.schema],
    id: SCHEMAS.user,
    name: 'User',
    description: 'A reader',
    attributes: [
      attribute('userName', { required: true, uniqueness: 'server' }),
      attribute('externalId', { caseExact: true }),
      attribute('displayName'),
      {
        ...attribute('name', { type: 'complex' }),
        subAttributes: [attribute('givenName'), attribute('familyName')],
      },
      {
        ...attribute('emails', { type: 'complex', multiValued: true }),
        subAttributes: [attribute('value'), attribute('type'), attribute('primary', { type: 'boolean' })],
      },
      attribute('active', { type: 'boolean' }),
      {
        ...attribute('groups', { type: 'complex', multiValued: true, mutability: 'readOnly' }),
        subAttributes: [
          attribute('value', { mutability: 'readOnly' }),
          attribute('display', { mutability: 'readOnly' }),
        ],
      },
    ],
    meta: { resourceType: 'Schema', location: `${origin}/scim/v2/Schemas/${SCHEMAS.user}` },
  },
  {
    schemas: [SCHEMAS.schema],
    id: SCHEMAS.group,
    name: 'Group',
    description: 'A group the portal offered to the organisation',
    attributes: [
      attribute('displayName', { required: true, mutability: 'immutable', uniqueness: 'server' }),
      {
        ...attribute('members', { type: 'complex', multiValued: true }),
        subAttributes: [
          attribute('value', { mutability: 'immutable' }),
          attribute('display', { mutability: 'readOnly' }),
        ],
      },
    ],
    meta: { resourceType: 'Schema', location: `${origin}/scim/v2/Schemas/${SCHEMAS.group}` },
  },
];

/**
 * SCIM 2.0 at `/scim/v2/` (RFC 7644) for partner organisations' directories: each call bears
 * an organisation's token (minted in /admin), and reaches only that organisation's readers.
 * Errors are SCIM's own shape; every call is kept for /admin (30 days), with its outcome;
 * each token has its own budget a minute (`SCIM_RATE_LIMIT`).
 */
const scim: FastifyPluginAsync = async (app) => {
  const { store, licences, identity, readerIndex, config } = app;
  const service = new ScimService({
    auth: identity.auth,
    db: () => store.db,
    licences,
    shared: identity.shared,
    sessionMaxAgeSeconds: config.session.maxAgeSeconds,
    forgetReader: (uid) => identity.forgetReader(uid),
    readerChanged: (account) => readerIndex.update(account),
    readerRemoved: (uid) => readerIndex.delete(uid),
    clock: app.clock,
  });

  // SCIM is its own protocol, described by its own endpoints (ServiceProviderConfig, Schemas):
  // not part of the portal's OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });

  // SCIM's media type is JSON, parsed as JSON.
  app.addContentTypeParser(
    SCIM_MEDIA_TYPE,
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    app.getDefaultJsonParser('error', 'error'),
  );

  app.setErrorHandler<FastifyError | ScimError>((error, request, reply) => {
    const status =
      error instanceof ScimError ? error.status : error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'SCIM call failed');
    const detail =
      status >= 500
        ? 'The portal could not complete the call; nothing was changed. Try again.'
        : status === 429
          ? `Too many calls: this token may make ${config.scimRateLimitPerMinute} a minute. Retry after the Retry-After header's seconds.`
          : error.message;
    const scimType =
      error instanceof ScimError
        ? error.scimType
        : status === 400
          ? 'invalidSyntax'
          : status === 429
            ? 'tooMany'
            : undefined;
    const call = calls.get(request);
    if (call) call.detail = detail;
    return json(reply.header('cache-control', 'no-store'), status, errorBody(status, detail, scimType));
  });

  // Any other path under /scim/v2 (more specific than the site's own catch-all): SCIM's 404.
  const unknownEndpoint = async (request: FastifyRequest, reply: FastifyReply) =>
    json(reply, 404, errorBody(404, `No SCIM endpoint ${request.method} ${request.url.split('?')[0]}`));
  app.setNotFoundHandler(unknownEndpoint);
  app.all('/*', unknownEndpoint);

  const refuse = (reply: FastifyReply, detail: string): FastifyReply =>
    json(reply.header('www-authenticate', 'Bearer realm="scim"'), 401, errorBody(401, detail));

  /** The organisation behind the call's token, or a SCIM 401 that says what is wrong with it. */
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    if (!store.readyNow)
      return json(reply, 503, errorBody(503, 'The portal’s database is not ready; try again shortly'));
    const header = request.headers.authorization;
    if (header === undefined)
      return refuse(reply, 'Send the organisation’s SCIM token as Authorization: Bearer <token>');
    const secret = bearerToken(header);
    if (secret === null) return refuse(reply, 'The Authorization header must be Bearer <token>');
    const token = await scimTokenBySecret(store.db, secret);
    if (token === null) return refuse(reply, 'The token is not a SCIM token of this portal');
    if (token.revokedAt !== null)
      return refuse(reply, `The token "${token.name}" was revoked on ${token.revokedAt.slice(0, 10)}`);
    const organisation = licences.snapshot.organisations.find((candidate) => candidate.id === token.organisationId);
    if (!organisation)
      return refuse(
        reply,
        `The organisation of the token "${token.name}" was removed from the portal; its readers are no longer provisioned here`,
      );
    calls.set(request, { organisation, token });
    return undefined;
  });

  app.addHook(
    'preHandler',
    app.rateLimit({
      max: config.scimRateLimitPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => `scim:${calls.get(request)?.token.id ?? request.ip}`,
      errorResponseBuilder: () => new ScimError(429, 'too many', 'tooMany'),
    }),
  );

  // Every call an organisation's client makes, with its outcome, for /admin.
  app.addHook('onResponse', async (request, reply) => {
    const call = calls.get(request);
    if (!call) return;
    await recordScimCall(store.db, {
      organisationId: call.organisation.id,
      token: call.token.id,
      method: request.method,
      path: request.url,
      status: reply.statusCode,
      detail: call.detail ?? null,
    }).catch((error: unknown) => request.log.warn({ err: error }, 'could not keep a SCIM call'));
  });

  const caller = (request: FastifyRequest): ScimCaller => {
    const call = calls.get(request) as Provisioning;
    return { ...call, origin: app.originOf(request), audit: (event) => app.audit(request, event) };
  };

  app.get('/ServiceProviderConfig', async (request, reply) =>
    json(reply, 200, serviceProviderConfig(app.originOf(request))),
  );
  app.get('/ResourceTypes', async (request, reply) => {
    const types = resourceTypes(app.originOf(request));
    return json(reply, 200, listResponse(types, types.length, 1));
  });
  app.get<{ Params: Id }>('/ResourceTypes/:id', async (request, reply) => {
    const type = resourceTypes(app.originOf(request)).find((candidate) => candidate.id === request.params.id);
    if (!type) throw new ScimError(404, `No resource type "${request.params.id}"; there are User and Group`);
    return json(reply, 200, type);
  });
  app.get('/Schemas', async (request, reply) => {
    const all = schemas(app.originOf(request));
    return json(reply, 200, listResponse(all, all.length, 1));
  });
  app.get<{ Params: Id }>('/Schemas/:id', async (request, reply) => {
    const schema = schemas(app.originOf(request)).find((candidate) => candidate.id === request.params.id);
    if (!schema) throw new ScimError(404, `No schema "${request.params.id}"`);
    return json(reply, 200, schema);
  });

  app.get<{ Querystring: Query }>('/Users', async (request, reply) =>
    json(reply, 200, await service.listUsers(caller(request), request.query)),
  );
  app.post('/Users', async (request, reply) => {
    const user = await service.createUser(caller(request), request.body);
    return json(reply.header('location', (user.meta as { location: string }).location), 201, user);
  });
  app.get<{ Params: Id }>('/Users/:id', async (request, reply) =>
    json(reply, 200, await service.getUser(caller(request), request.params.id)),
  );
  app.put<{ Params: Id }>('/Users/:id', async (request, reply) =>
    json(reply, 200, await service.replaceUser(caller(request), request.params.id, request.body)),
  );
  app.patch<{ Params: Id }>('/Users/:id', async (request, reply) =>
    json(reply, 200, await service.patchUser(caller(request), request.params.id, request.body)),
  );
  app.delete<{ Params: Id }>('/Users/:id', async (request, reply) => {
    await service.deleteUser(caller(request), request.params.id);
    return reply.code(204).send();
  });

  app.get<{ Querystring: Query }>('/Groups', async (request, reply) =>
    json(reply, 200, await service.listGroups(caller(request), request.query)),
  );
  app.post('/Groups', async (request, reply) => {
    const group = await service.createGroup(caller(request), request.body);
    return json(reply.header('location', group.meta.location), 201, group);
  });
  app.get<{ Params: Id; Querystring: Query }>('/Groups/:id', async (request, reply) =>
    json(reply, 200, await service.getGroup(caller(request), request.params.id, request.query)),
  );
  app.put<{ Params: Id }>('/Groups/:id', async (request, reply) =>
    json(reply, 200, await service.replaceGroup(caller(request), request.params.id, request.body)),
  );
  app.patch<{ Params: Id }>('/Groups/:id', async (request, reply) =>
    json(reply, 200, await service.patchGroup(caller(request), request.params.id, request.body)),
  );
  app.delete<{ Params: Id }>('/Groups/:id', async (request, reply) => {
    await service.deleteGroup(caller(request), request.params.id);
    return reply.code(204).send();
  });
};
export default scim;
