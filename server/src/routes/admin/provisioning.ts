import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';

import {
  ErrorAnswer,
  IdParams,
  NoContent,
  OrganisationSignInBody,
  ProvisioningOverview,
  ScimGroupsBody,
  ScimTokenAnswer,
  ScimTokenBody,
  ScimTokenParams,
} from '@portal/contract';

import type { Database } from '../../db/database.js';
import { setOrganisationSignIn, type OrganisationSignIn } from '../../db/licences.js';
import {
  listScimTokens,
  mintScimToken,
  organisationGroups,
  recentScimCalls,
  revokeScimToken,
  setOrganisationGroups,
} from '../../db/scim.js';
import { signedIn } from '../../plugins/app/guards.js';
import { Refused } from '../../refused.js';

const errors = { 400: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 503: ErrorAnswer };

/**
 * A partner organisation's own sign-in and provisioning, for administrators: its identity
 * provider (and whether its readers must use it), the bearer tokens of its SCIM client (a
 * secret shown once), the groups that client may put readers in, and its last calls. Each
 * change is audited and read again by every replica (`Licences.changed`).
 */
const provisioning: FastifyPluginAsyncTypebox = async (app) => {
  const { store, licences, guards } = app;
  app.addHook('preHandler', guards.requireDatabase);

  const signInOf = async (db: Pick<Database, 'query'>, id: string): Promise<OrganisationSignIn | null | undefined> => {
    const [row] = await db.query<{ provider: string | null; name: string | null; required: boolean }>(
      'select sign_in_provider as provider, sign_in_name as name, sign_in_required as required from organisations where id = $1',
      [id],
    );
    if (!row) return undefined;
    return row.provider === null
      ? null
      : { provider: row.provider, name: row.name ?? row.provider, required: row.required };
  };
  const known = async (db: Pick<Database, 'query'>, id: string): Promise<OrganisationSignIn | null> => {
    const signIn = await signInOf(db, id);
    if (signIn === undefined) throw new Refused(404, `No organisation "${id}"`);
    return signIn;
  };

  app.get(
    '/organisations/:id/provisioning',
    { schema: { params: IdParams, response: { 200: ProvisioningOverview, 404: ErrorAnswer, 503: ErrorAnswer } } },
    async (request) => {
      const { id } = request.params;
      const signIn = await known(store.db, id);
      const [groups, tokens, calls, [count]] = await Promise.all([
        organisationGroups(store.db, id),
        listScimTokens(store.db, id),
        recentScimCalls(store.db, id),
        store.db.query<{ readers: number }>(
          'select count(*)::int as readers from scim_users where organisation_id = $1',
          [id],
        ),
      ]);
      return {
        organisation: id,
        signIn,
        endpoint: `${app.originOf(request)}/scim/v2`,
        groups,
        tokens: tokens.map(({ id, name, hint, createdAt, createdBy, lastUsedAt, revokedAt }) => ({
          id,
          name,
          hint,
          createdAt,
          createdBy,
          lastUsedAt,
          revokedAt,
        })),
        readers: count?.readers ?? 0,
        calls,
      };
    },
  );

  /** Sets (or with null removes) the organisation's sign-in: one transaction, one audit event, every replica told. */
  const saveSignIn = async (request: FastifyRequest, id: string, after: OrganisationSignIn | null) => {
    const admin = await signedIn(request);
    const before = await store.db.transaction(async (tx) => {
      const previous = await known(tx, id);
      await setOrganisationSignIn(tx, id, after);
      return previous;
    });
    app.audit(request, {
      kind: 'admin.organisation-sign-in',
      actorUid: admin.uid,
      actorEmail: admin.email,
      groups: admin.groups,
      detail: { organisation: id, action: after === null ? 'removed' : 'set', before, after },
    });
    await licences.changed();
  };

  app.put(
    '/organisations/:id/sign-in',
    { schema: { params: IdParams, body: OrganisationSignInBody, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const { provider, name, required } = request.body;
      await saveSignIn(request, request.params.id, { provider, name: name.trim(), required });
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/organisations/:id/sign-in',
    { schema: { params: IdParams, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      await saveSignIn(request, request.params.id, null);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/organisations/:id/scim-tokens',
    { schema: { params: IdParams, body: ScimTokenBody, response: { 201: ScimTokenAnswer, ...errors } } },
    async (request, reply) => {
      const admin = await signedIn(request);
      const { id } = request.params;
      await known(store.db, id);
      const name = request.body.name.trim();
      const { token, secret } = await mintScimToken(store.db, {
        organisationId: id,
        name,
        createdBy: admin.email ?? admin.uid,
      });
      app.audit(request, {
        kind: 'admin.scim-token',
        actorUid: admin.uid,
        actorEmail: admin.email,
        groups: admin.groups,
        detail: { organisation: id, action: 'minted', token: token.id, name, hint: token.hint },
      });
      return reply.code(201).send({ id: token.id, name, token: secret });
    },
  );

  app.delete(
    '/organisations/:id/scim-tokens/:token',
    { schema: { params: ScimTokenParams, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const admin = await signedIn(request);
      const { id, token: tokenId } = request.params;
      await known(store.db, id);
      const token = await revokeScimToken(store.db, id, tokenId);
      if (token === null) throw new Refused(404, `No live SCIM token "${tokenId}" of "${id}"`);
      app.audit(request, {
        kind: 'admin.scim-token',
        actorUid: admin.uid,
        actorEmail: admin.email,
        groups: admin.groups,
        detail: { organisation: id, action: 'revoked', token: token.id, name: token.name, hint: token.hint },
      });
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/organisations/:id/scim-groups',
    { schema: { params: IdParams, body: ScimGroupsBody, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      const admin = await signedIn(request);
      const { id } = request.params;
      const wanted = [...request.body.groups].sort();
      const unknown = wanted.filter((name) => !licences.snapshot.groups.some((group) => group.name === name));
      if (unknown.length > 0)
        throw new Refused(
          400,
          `${unknown.map((name) => `"${name}"`).join(', ')} is not a group of the administrators (Organisations, Groups)`,
        );
      const before = await store.db.transaction(async (tx) => {
        await known(tx, id);
        const previous = await organisationGroups(tx, id);
        await setOrganisationGroups(tx, id, wanted);
        return previous;
      });
      app.audit(request, {
        kind: 'admin.organisation-sign-in',
        actorUid: admin.uid,
        actorEmail: admin.email,
        groups: admin.groups,
        detail: { organisation: id, action: 'groups', before: { groups: before }, after: { groups: wanted } },
      });
      await licences.changed();
      return reply.code(204).send(null);
    },
  );
};
export default provisioning;
