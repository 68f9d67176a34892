import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { ErrorAnswer, ImportQuery, ImportReport, MembershipCsv } from '@portal/contract';
import { MAX_IMPORT_BYTES } from '@portal/contract/names';

import { CsvFileError, type ImportPlan } from '../../memberships/csv.js';
import { membershipImports } from '../../memberships/import.js';
import { signedIn } from '../../plugins/app/guards.js';
import { Refused } from '../../refused.js';

const report = (plan: ImportPlan, applied: boolean): ImportReport => ({
  applied,
  rows: plan.rows,
  counts: plan.counts,
  changes: plan.changes,
  refused: plan.refused,
});
const fileRefused = (error: unknown): never => {
  if (error instanceof CsvFileError) throw new Refused(400, error.message);
  throw error;
};
const SEND_CSV = 'Send the file as CSV text (Content-Type: text/csv)';

/**
 * Readers' memberships as CSV: the import's preview, its all-or-nothing apply (a refused row
 * stops the whole file) and the export (memberships/import.ts).
 */
const membershipsCsv: FastifyPluginAsyncTypebox = async (app) => {
  const { store, licences, guards } = app;
  app.addHook('preHandler', guards.requireDatabase);
  // A CSV file as it is sent: text, up to the import's limit (the API's other bodies stay small).
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: MAX_IMPORT_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  const errors = { 400: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 503: ErrorAnswer };

  app.post(
    '/readers/import',
    {
      bodyLimit: MAX_IMPORT_BYTES,
      config: {
        reasons: {
          413: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB; split it into smaller files`,
          415: SEND_CSV,
        },
      },
      // A JSON body would parse and then fail the schema: say what to send instead.
      preValidation: async (request, reply) => {
        if (!/^text\/csv\b/i.test(request.headers['content-type'] ?? ''))
          return reply.code(415).send({ error: SEND_CSV });
      },
      schema: {
        consumes: ['text/csv'],
        querystring: ImportQuery,
        body: MembershipCsv,
        response: { 200: ImportReport, 422: ImportReport, 413: ErrorAnswer, 415: ErrorAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const text = request.body;
      if (request.query.apply !== 'true')
        return report(await membershipImports.preview(store.db, text).catch(fileRefused), false);
      const { plan, applied } = await membershipImports.apply(store.db, text).catch(fileRefused);
      // A refused row stops the whole file: nothing was written, and the report says why.
      if (!applied) return reply.code(422).send(report(plan, false));
      const admin = await signedIn(request);
      app.audit(request, {
        kind: 'admin.import',
        actorUid: admin.uid,
        actorEmail: admin.email,
        groups: admin.groups,
        detail: membershipImports.auditDetail(text, plan),
      });
      await licences.changed();
      return report(plan, true);
    },
  );

  app.get(
    '/readers/export',
    {
      schema: {
        produces: ['text/csv'],
        response: {
          200: {
            description: 'Every membership: email,organisation,groups',
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          503: ErrorAnswer,
        },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="readers-${new Date().toISOString().slice(0, 10)}.csv"`)
        .send(await membershipImports.export(store.db)),
  );
};
export default membershipsCsv;
