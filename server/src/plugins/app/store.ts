import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import type { Reader } from '../../auth/identity.js';
import { insertAuditEvents, type AuditEvent } from '../../db/audit.js';
import { AuditInbox, auditInboxDir } from '../../db/audit-inbox.js';
import { seedDemoActivity } from '../../db/demo.js';
import { seedDemoOrganisations } from '../../db/demo-organisations.js';
import type { ViewChannel, ViewClient } from '../../db/page-views.js';
import { Store } from '../../db/store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal's database and the recorders that write to it off the request path (db/store.ts). */
    store: Store;
    /** Puts an event in the audit trail's queue, with the client address when the settings keep them. */
    audit(request: FastifyRequest, event: AuditEvent): void;
    /** Counts a page view (page-views.ts): once per reader, page, way of reading and hour. */
    recordView(
      request: FastifyRequest,
      reader: Reader,
      path: string,
      via?: ViewChannel,
      client?: ViewClient | null,
    ): void;
  }
}

/**
 * The store: a supplied one (tests), or one opened from the settings, with the demo data when
 * asked and the readers command's audit inbox beside a PGlite folder this server holds.
 */
export default fp<{ store?: Store }>(
  async (app, options) => {
    const { config, site } = app;
    const store =
      options.store ??
      (await Store.open({
        database: config.database,
        retentionDays: config.audit.retentionDays,
        queueLimit: config.audit.queueLimit,
        log: app.log,
        seed: config.demoData
          ? async (db) => {
              await seedDemoOrganisations(db, app.log);
              await seedDemoActivity(db, site, app.log);
            }
          : undefined,
      }));
    if (!options.store) app.addHook('onClose', () => store.close());
    // The readers command's audit events, when it cannot open the PGlite folder this server holds (db/audit-inbox.ts).
    const inboxDir = options.store ? null : auditInboxDir(config.database);
    if (inboxDir !== null) {
      const inbox = new AuditInbox({
        dir: inboxDir,
        write: (events) => insertAuditEvents(store.db, events),
        ready: () => store.readyNow,
        log: app.log,
      });
      inbox.start();
      app.addHook('onClose', () => inbox.close());
    }
    const clientIp = (request: FastifyRequest): string | null => (config.audit.storeClientIp ? request.ip : null);
    app.decorate('store', store);
    app.decorate('audit', (request: FastifyRequest, event: AuditEvent) =>
      store.audit.record({ at: new Date(), ...event, clientIp: clientIp(request) }),
    );
    app.decorate(
      'recordView',
      (
        request: FastifyRequest,
        reader: Reader,
        path: string,
        via: ViewChannel = 'page',
        client: ViewClient | null = null,
      ) => store.views.record(reader, path, via, clientIp(request), client),
    );
  },
  { name: 'store', dependencies: ['config', 'site'] },
);
