import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { policy, unitsOfGroups } from '@portal/access';
import { ErrorAnswer, InsightsAnswer, InsightsPages, InsightsQuery } from '@portal/contract';

import { ReaderDirectory } from '../../auth/readers.js';
import { insights as insightsOf } from '../../db/insights.js';
import { describeSite } from '../../page-descriptions.js';
import { ADMIN_PATH } from '../../plugins/app/guards.js';
import { countOf, Refused } from '../../refused.js';

/**
 * What readers read, searched for and said, for one group or everyone over a period; and the
 * title and unit of every page, for the insights to name pages as readers know them.
 */
const insights: FastifyPluginAsyncTypebox = async (app) => {
  const { store, site, guards, licences, readerIndex } = app;
  app.get(
    '/insights',
    {
      preHandler: guards.requireDatabase,
      schema: { querystring: InsightsQuery, response: { 200: InsightsAnswer, 400: ErrorAnswer, 503: ErrorAnswer } },
    },
    async (request) => {
      const { group, organisation: organisationId, days: daysText } = request.query;
      if (group !== undefined) ReaderDirectory.checkGroups([group]);
      const organisation =
        organisationId === undefined
          ? null
          : licences.snapshot.organisations.find((candidate) => candidate.id === organisationId);
      if (organisation === undefined) throw new Refused(400, `No organisation "${organisationId}"`);
      const days = countOf(daysText, 3650) ?? 30;
      const to = new Date();
      const from = new Date(to.getTime() - days * 24 * 60 * 60 * 1000);
      // The readers of an organisation: placed there, or at one of its verified domains.
      const readers =
        organisation === null
          ? undefined
          : {
              organisation: organisation.id,
              uids: (
                await readerIndex.select(
                  (account) =>
                    account.email !== null &&
                    licences.organisationOf(account.email, account.emailVerified)?.id === organisation.id,
                )
              ).map((account) => account.uid),
            };
      // A group's pages: those of the units the group reads; an organisation's, those its live licences give.
      const licensed =
        organisation === null
          ? null
          : licences.snapshot.licences
              .filter((licence) => licence.organisationId === organisation.id && licences.isLive(licence))
              .flatMap((licence) => licence.units);
      const ofGroup = group === undefined ? null : unitsOfGroups([group]);
      const units = ofGroup === null && licensed === null ? null : [...(ofGroup ?? []), ...(licensed ?? [])];
      const pages = site.pages
        .filter(
          (page) => page.access === 'private' && (units === null || page.units.some((unit) => units.includes(unit))),
        )
        .filter((page) => !page.url.startsWith(ADMIN_PATH))
        .map((page) => page.url);
      return {
        ...(await insightsOf(store.db, { group, readers, from, to, pages })),
        groups: [...policy.groups],
        organisations: licences.snapshot.organisations
          .map(({ id, name }) => ({ id, name }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      };
    },
  );

  // Administrators read every unit: the titles of every page are theirs to see.
  app.get('/insights/pages', { schema: { response: { 200: InsightsPages } } }, async () => ({
    pages: describeSite(site),
  }));
};
export default insights;
