import fp from 'fastify-plugin';

import { mailerFor, type Mailer } from '../../mail.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal's outgoing mail (SMTP_URL), or null when none is set. */
    mailer: Mailer | null;
  }
}

/** The mailer: a supplied one (a test's transport, or null for none), else the one the settings name. */
export default fp<{ mailer?: Mailer | null }>(
  async (app, options) => {
    const mailer = options.mailer === undefined ? mailerFor(app.config, app.log) : options.mailer;
    if (mailer && options.mailer === undefined) app.addHook('onClose', async () => mailer.close());
    app.decorate('mailer', mailer);
  },
  { name: 'mailer', dependencies: ['config'] },
);
