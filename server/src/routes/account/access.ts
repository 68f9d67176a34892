import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { MyAccessAnswer } from '@portal/contract';

import { accessOf } from '../../access-requests.js';
import { signedIn } from '../../plugins/app/guards.js';

/**
 * `GET /api/access`: what the signed-in reader reads and where each part comes from (a
 * group, their organisation's licence with its end, a grant of their own), for their account
 * page. About the caller only; the account is read from the identity service, so its groups
 * are the ones it has now.
 */
const access: FastifyPluginAsyncTypebox = async (app) => {
  const { directory, licences } = app;
  app.get('/access', { schema: { response: { 200: MyAccessAnswer } } }, async (request) => {
    const reader = await signedIn(request);
    return accessOf(licences, await directory.get(reader.uid));
  });
};

export default access;
