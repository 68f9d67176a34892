import fp from 'fastify-plugin';

import { oneAtATime } from '../../one-at-a-time.js';
import { unsubscribeUrl } from '../../routes/whats-new.js';
import { sendDigests } from '../../whats-new/digest.js';
import { recordSiteTexts } from '../../whats-new/service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** "What's new": records the served build's page texts and releases, and sends the digests due. */
    whatsNew: { check(): Promise<void> };
  }
}

/** How often the digests due are looked for, besides after each new build. */
const CHECK_EVERY_MS = 15 * 60 * 1000;

/**
 * Each build a gate serves is recorded (the text of each page and each release, the first
 * time any gate served them), then the digests due are sent: at start, at each new build and
 * every CHECK_EVERY_MS; several replicas doing it at once record and send each thing once.
 */
export default fp(
  async (app) => {
    const { config, store, site, mailer, identity } = app;
    const host = ['0.0.0.0', '::', '127.0.0.1'].includes(config.host) ? 'localhost' : config.host;
    const origin = config.publicOrigin ?? `http://${host}:${config.port}`;
    const check = oneAtATime(async (): Promise<void> => {
      if (!store.readyNow) return;
      const now = new Date(app.clock());
      const recorded = await recordSiteTexts(store.db, site, now);
      if (recorded > 0) app.log.info({ build: site.id, recorded }, 'new page texts and releases recorded');
      if (mailer === null) return;
      const { sent, failed } = await sendDigests({
        db: store.db,
        site,
        mailer,
        readerByUid: (uid) => identity.readerByUid(uid),
        origin,
        unsubscribeUrl: (uid) => unsubscribeUrl(origin, config.session.secret, uid),
        now,
        log: app.log,
      });
      if (sent + failed > 0) app.log.info({ sent, failed }, 'what’s new digests');
    });
    const run = (): void => {
      check().catch((error: unknown) =>
        app.log.error({ err: error }, 'could not record the build or send the digests'),
      );
    };
    void store.whenReady().then(run);
    site.onReplace(run);
    const timer = setInterval(run, CHECK_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
    app.decorate('whatsNew', { check });
  },
  { name: 'whats-new', dependencies: ['config', 'store', 'site', 'mailer', 'identity'] },
);
