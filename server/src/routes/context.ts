import type { FastifyRequest } from 'fastify';

import type { Identity, Reader } from '../auth/identity.js';
import type { OAuthServer } from '../auth/oauth.js';
import type { TokenService } from '../auth/tokens.js';
import type { ReaderDirectory, ReaderIndex } from '../auth/readers.js';
import type { Config } from '../config.js';
import type { AuditEvent } from '../db/audit.js';
import type { ViewChannel, ViewClient } from '../db/page-views.js';
import type { Store } from '../db/store.js';
import type { Mailer } from '../mail.js';
import type { AgentMeter } from '../plugins/agent-meter.js';
import type { Guards } from '../plugins/guards.js';
import type { SessionCookies } from '../plugins/reader.js';
import type { SiteSearch } from '../search/site-search.js';
import type { Site } from '../site.js';

/** What the gate's routes share: settings, the identity service, the store and the request helpers. */
export interface GateContext {
  config: Config;
  site: Site;
  identity: Identity;
  store: Store;
  directory: ReaderDirectory;
  readerIndex: ReaderIndex;
  /** Personal access tokens for coding assistants. */
  tokens: TokenService;
  /** The OAuth authorization server of /mcp, and the check of its access tokens. */
  oauth: OAuthServer;
  /** What agents spend: a budget per token, refusals per address (agent-meter.ts). */
  meter: AgentMeter;
  /** The site's search, in the server (the search API and MCP). */
  search: SiteSearch;
  /** The checks routes put in front of themselves (same origin, a reader, an administrator). */
  guards: Guards;
  /** The session cookie and its groups hint. */
  cookies: SessionCookies;
  /** Puts an event in the audit trail's queue, with the client address when the settings allow. */
  audit(request: FastifyRequest, event: AuditEvent): void;
  /** Counts a page view (page-views.ts): once per reader, page, way of reading and hour. */
  recordView(
    request: FastifyRequest,
    reader: Reader,
    path: string,
    via?: ViewChannel,
    client?: ViewClient | null,
  ): void;
  /** The portal's outgoing mail (SMTP_URL), or null when none is set. */
  mailer: Mailer | null;
  /** The time now in ms: `Date.now`, or the clock a test gives the app. */
  clock: () => number;
}
