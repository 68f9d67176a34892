import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { policy, unitsOfGroups } from '@portal/access';
import { ErrorAnswer, InsightsAnswer, InsightsPages, InsightsQuery } from '@portal/contract';

import { ReaderDirectory } from '../../auth/readers.js';
import { insights as insightsOf } from '../../db/insights.js';
import { describeSite } from '../../page-descriptions.js';
import { ADMIN_PATH } from '../../plugins/app/guards.js';
import { countOf } from '../../refused.js';

/**
 * What readers read, searched for and said, for one group or everyone over a period; and the
 * title and unit of every page, for the insights to name pages as readers know them.
 */
const insights: FastifyPluginAsyncTypebox = async (app) => {
  const { store, site, guards } = app;
  app.get(
    '/insights',
    {
      preHandler: guards.requireDatabase,
      schema: { querystring: InsightsQuery, response: { 200: InsightsAnswer, 400: ErrorAnswer, 503: ErrorAnswer } },
    },
    async (request) => {
      const { group, days: daysText } = request.query;
      if (group !== undefined) ReaderDirectory.checkGroups([group]);
      const days = countOf(daysText, 3650) ?? 30;
      const to = new Date();
      const from = new Date(to.getTime() - days * 24 * 60 * 60 * 1000);
      // A group's pages: those of the units the group reads.
      const units = group === undefined ? null : unitsOfGroups([group]);
      const pages = site.pages
        .filter(
          (page) => page.access === 'private' && (units === null || page.units.some((unit) => units.includes(unit))),
        )
        .filter((page) => !page.url.startsWith(ADMIN_PATH))
        .map((page) => page.url);
      return { ...(await insightsOf(store.db, { group, from, to, pages })), groups: [...policy.groups] };
    },
  );

  // Administrators read every unit: the titles of every page are theirs to see.
  app.get('/insights/pages', { schema: { response: { 200: InsightsPages } } }, async () => ({
    pages: describeSite(site),
  }));
};
export default insights;
