import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Identity, Reader } from '../auth/identity.js';
import type { TokenService } from '../auth/tokens.js';
import type { ReaderDirectory, ReaderIndex } from '../auth/readers.js';
import type { Config } from '../config.js';
import type { AuditEvent } from '../db/audit.js';
import type { ViewChannel } from '../db/page-views.js';
import type { Store } from '../db/store.js';
import type { SiteSearch } from '../search/site-search.js';
import type { AgentMeter } from '../agent-meter.js';
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
  /** What agents spend: a budget per token, refusals per address (agent-meter.ts). */
  meter: AgentMeter;
  /** The site's search, in the server (the search API and MCP). */
  search: SiteSearch;
  /** The reader behind a request's session cookie (signing them out when it is no good). */
  readerOf(request: FastifyRequest, reply: FastifyReply): Promise<Reader | 'anonymous' | 'unavailable'>;
  /** Answers 403 unless the request's `Origin` is this site (for every state-changing call). */
  requireSameOrigin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Puts an event in the audit trail's queue, with the client address when the settings allow. */
  audit(request: FastifyRequest, event: AuditEvent): void;
  /** Counts a page view (page-views.ts): once per reader, page, way of reading and hour. */
  recordView(request: FastifyRequest, reader: Reader, path: string, via?: ViewChannel): void;
}
