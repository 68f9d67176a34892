import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The OpenAPI document of the portal's API (plugins/external/swagger.ts), for administrators and their automation. */
const openapi: FastifyPluginAsyncTypebox = async (app) => {
  const { guards } = app;
  app.get(
    '/api/openapi.json',
    {
      config: { token: 'admin' },
      onRequest: [guards.noStore('no-store'), guards.requireAdmin],
      schema: { hide: true },
    },
    async () => app.swagger(),
  );
};
export default openapi;
