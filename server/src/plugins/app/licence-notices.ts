import fp from 'fastify-plugin';

import { sendDueNotices } from '../../licence-notices.js';
import { oneAtATime } from '../../one-at-a-time.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the licence notices due now (licence-notices.ts); resolves when they are handed to the mailer. */
    licenceNotices: { check(): Promise<void> };
  }
}

/** How often the notices due are looked for, besides at every change of the access data. */
const CHECK_EVERY_MS = 60 * 60 * 1000;

/**
 * Licence notices: a mail to an organisation's contact and to the administrators
 * LICENCE_NOTICE_DAYS before its licence ends and on the day. Looked for once the access data
 * is read, at each change of it and every hour; nothing without a mailer.
 */
export default fp(
  async (app) => {
    const { config, store, licences, mailer } = app;
    const check = oneAtATime(async (): Promise<void> => {
      if (mailer === null || !store.readyNow || !licences.ready) return;
      const sent = await sendDueNotices({
        db: store.db,
        data: licences.snapshot,
        mailer,
        now: app.clock(),
        days: config.licenceNoticeDays,
        origin: config.publicOrigin,
      });
      for (const { licence, organisation, kind } of sent)
        app.log.info({ licence: licence.id, organisation: organisation.id, kind }, 'licence notice sent');
    });
    const run = (): void => {
      check().catch((error: unknown) => app.log.error({ err: error }, 'could not send the licence notices'));
    };
    licences.onLoad(run);
    if (licences.ready) run();
    const timer = setInterval(run, CHECK_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
    app.decorate('licenceNotices', { check });
  },
  { name: 'licence-notices', dependencies: ['config', 'store', 'licences', 'mailer'] },
);
