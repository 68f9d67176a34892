import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';

import access from './routes/account/access.js';
import accessRequests from './routes/account/access-requests.js';
import activity from './routes/account/activity.js';
import apps from './routes/account/apps.js';
import accountHooks from './routes/account/autohooks.js';
import tokens from './routes/account/tokens.js';
import whatsNewAccount from './routes/account/whats-new.js';
import adminAccessRequests from './routes/admin/access-requests.js';
import adminAccess from './routes/admin/access.js';
import adminApps from './routes/admin/apps.js';
import audit from './routes/admin/audit.js';
import adminHooks from './routes/admin/autohooks.js';
import insights from './routes/admin/insights.js';
import membershipsCsv from './routes/admin/memberships-csv.js';
import provisioning from './routes/admin/provisioning.js';
import readers from './routes/admin/readers.js';
import sources from './routes/admin/sources.js';
import adminTokens from './routes/admin/tokens.js';
import discovery from './routes/discovery.js';
import health from './routes/health.js';
import releaseHooks from './routes/hooks.js';
import llms from './routes/llms.js';
import markdown from './routes/markdown.js';
import mcp from './routes/mcp.js';
import consent from './routes/oauth/consent.js';
import oauthMetadata from './routes/oauth/metadata.js';
import oauthProvider from './routes/oauth/provider.js';
import openapi from './routes/openapi.js';
import pages from './routes/pages.js';
import searchFiles from './routes/search-files.js';
import scim from './routes/scim.js';
import search from './routes/search.js';
import session from './routes/session.js';
import whatsNew from './routes/whats-new.js';

/** Every route file, in the order they register: a folder's autohooks.ts holds the guards of every route in it. */
const routes: FastifyPluginAsync = async (gate) => {
  for (const plugin of [health, session, pages, markdown, llms, discovery, search, searchFiles, mcp, openapi, whatsNew])
    await gate.register(plugin);
  for (const plugin of [releaseHooks, oauthMetadata, oauthProvider, consent]) await gate.register(plugin);
  // Partner directories' provisioning: its own errors, parser and guards in a scope of its own.
  await gate.register(scim, { prefix: '/scim/v2' });
  await gate.register(folder(accountHooks, [tokens, apps, activity, access, accessRequests, whatsNewAccount]), {
    prefix: '/api',
  });
  const admin = [
    readers,
    audit,
    insights,
    adminTokens,
    adminApps,
    adminAccess,
    membershipsCsv,
    adminAccessRequests,
    provisioning,
  ];
  await gate.register(folder(adminHooks, [...admin, sources]), { prefix: '/api/admin' });
};
export default routes;

/** A route folder in a scope of its own: its autohooks (the guards of every route in it), then its route files. */
function folder(autohooks: FastifyPluginAsync, files: FastifyPluginAsyncTypebox[]): FastifyPluginAsync {
  return async (scope) => {
    await scope.register(autohooks);
    for (const file of files) await scope.register(file);
  };
}
