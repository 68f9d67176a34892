import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';

import { SESSION_COOKIE, TOKEN_PREFIX } from '@portal/contract/names';

/** The OpenAPI document, made from the routes' schemas (the contract's), for administrators (routes/openapi.ts). */
export default fp(
  async (app) =>
    app.register(swagger, {
      openapi: {
        info: { title: 'Norigin Developer Docs API', version: '1.0.0' },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
            token: { type: 'http', scheme: 'bearer', description: `A personal access token (${TOKEN_PREFIX}…)` },
          },
        },
      },
    }),
  { name: 'swagger' },
);
