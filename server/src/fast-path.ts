import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

import type { FastifyServerFactory } from 'fastify';

import { mayRead } from '@portal/access';

import type { Reader } from './auth/identity.js';
import { surfaceOfFile, type Metrics } from './metrics.js';
import { sessionLookups } from './plugins/app/reader.js';
import { chooseEncoding, fileHeaders, type Encoding, type Site, type SiteFile } from './site.js';

/**
 * The headers helmet sets on every answer, read once by running its middleware against a
 * stand-in response: the same names, values and order the Fastify path sends.
 */
export function helmetHeaders(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void,
): [string, string][] {
  const headers = new Map<string, [string, string]>();
  const stand = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]);
      return stand;
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
    getHeader(name: string) {
      return headers.get(name.toLowerCase())?.[1];
    },
  };
  let failed: unknown = null;
  middleware({ headers: {} } as IncomingMessage, stand as unknown as ServerResponse, (error) => (failed = error));
  if (failed) throw failed as Error;
  return [...headers.values()];
}

export interface FastPathOptions {
  site: Site;
  metrics: Metrics;
  securityHeaders: readonly [string, string][];
  sessionCookie: string;
  /** The id of a request that comes without one (request-id.ts), the same the Fastify path gives. */
  newRequestId: () => string;
  cachedReader: (cookie: string) => Reader | undefined;
  /** Whether private files take the hot path (not when client addresses are stored: Fastify knows them behind proxies). */
  privatePages: boolean;
  /** Records a private page view (the audit trail); null when page views are not recorded. */
  recordView: ((reader: Reader, path: string) => void) | null;
  /** Logs the request lines Fastify would (at info level), or null when that level is off. */
  logRequest: ((id: string, request: IncomingMessage, status: number, ms: number) => void) | null;
  /** True from the moment the server begins to close: Fastify then answers (503, connection close). */
  closing: () => boolean;
}

/**
 * Paths the fast path takes: plain absolute paths without a query, percent-encoding, dot
 * segments or doubled slashes. Anything else goes through Fastify, which answers it in full.
 * Each segment starts at its slash, so the match is linear in the path's length whatever
 * is sent (an optional separator inside a repeated group would backtrack exponentially).
 */
export const PLAIN_PATH = /^(?:(?:\/[A-Za-z0-9_~-][A-Za-z0-9_.~-]*)+\/?|\/)$/;

/**
 * Reads the value of the cookie `name` from a Cookie header where it stands instead of
 * parsing the whole header (the `cookie` package makes an object of every cookie: about
 * 0.4 µs a request under load, against 0.18 for this). The first appearance of `name` in
 * the header counts only at the header's start or after "; " (the separator browsers send),
 * and only followed by "="; anywhere else (in another cookie's name or value, before a
 * space, after other spacing) the answer is undefined and the request goes to Fastify,
 * which parses the header in full. So no earlier pair can be `name`, and the value found is
 * the full parse's, unless it has spaces around it or percent-escapes; such a value is
 * never a session cookie the gate signed, and the fast path uses a value only if the
 * session cache holds exactly it.
 */
export function cookieReader(name: string): (header: string) => string | undefined {
  const SEMICOLON = 59;
  const SPACE = 32;
  const EQUALS = 61;
  return (header) => {
    const at = header.indexOf(name);
    if (at === -1) return undefined;
    if (at > 0 && (header.charCodeAt(at - 1) !== SPACE || header.charCodeAt(at - 2) !== SEMICOLON)) return undefined;
    const start = at + name.length + 1;
    if (header.charCodeAt(start - 1) !== EQUALS) return undefined;
    const end = header.indexOf(';', start);
    return end === -1 ? header.slice(start) : header.slice(start, end);
  };
}

/**
 * The gate's hot path, ahead of Fastify's request cycle: a GET of a file the site has,
 * public, or private with a session already verified within the cache's TTL whose groups
 * may read it. It sends exactly what the Fastify route sends (the same security headers,
 * request id, caching headers and bytes), counts the request in the metrics and records
 * the page view; every other request (a query string, a conditional or Markdown request,
 * a token, a session not in the cache, a refusal, HEAD, the API) returns false and is
 * answered by Fastify. Its answers are the same, only cheaper to make: it saves Fastify's
 * request and reply objects, hooks and router, about half of the gate's time per page.
 */
export function createFastPath(
  options: FastPathOptions,
): (request: IncomingMessage, response: ServerResponse) => boolean {
  const { site, metrics } = options;
  const readSession = cookieReader(options.sessionCookie);
  const headersOf = new WeakMap<SiteFile, Partial<Record<Encoding, string[]>>>();
  // Per file, its slot in the request counter (metrics.ts RequestTally): its surface and access, status 200.
  const slotOf = new WeakMap<SiteFile, number>();
  const answeredSlot = (file: SiteFile): number => {
    let slot = slotOf.get(file);
    if (slot === undefined) slotOf.set(file, (slot = metrics.tally.slot(surfaceOfFile(file), file.access, 200)));
    return slot;
  };

  /**
   * The response headers of a file in an encoding, as a flat list (name, value, …) whose
   * last value is the request id's place: set just before `writeHead`, which reads the list
   * at once (one thread), so one list per file serves every request.
   */
  const headersFor = (file: SiteFile, encoding: Encoding): string[] => {
    let byEncoding = headersOf.get(file);
    if (!byEncoding) headersOf.set(file, (byEncoding = {}));
    let list = byEncoding[encoding];
    if (!list) {
      list = options.securityHeaders.flat();
      for (const [name, value] of Object.entries(fileHeaders(file))) list.push(name, value);
      if (encoding !== 'identity') list.push('content-encoding', encoding);
      const body = file.bodies[encoding] ?? (file.bodies.identity as Buffer);
      list.push('content-type', file.contentType, 'content-length', String(body.length), 'x-request-id', '');
      byEncoding[encoding] = list;
    }
    return list;
  };

  return (request, response) => {
    if (request.method !== 'GET' || options.closing()) return false;
    const headers = request.headers;
    const url = request.url ?? '';
    if (
      headers['if-none-match'] !== undefined ||
      headers.authorization !== undefined ||
      headers.accept?.includes('markdown') ||
      !PLAIN_PATH.test(url)
    )
      return false;
    const started = performance.now();
    const file = site.lookup(url);
    if (!file) return false;
    let reader: Reader | undefined;
    if (file.access === 'private') {
      if (!options.privatePages) return false;
      const cookieHeader = headers.cookie;
      if (cookieHeader === undefined) return false;
      const raw = readSession(cookieHeader);
      if (raw === undefined) return false;
      reader = options.cachedReader(raw);
      if (!reader || !mayRead(reader.units, file.units)) {
        // Fastify's path reads the reader from this look-up instead of looking again.
        sessionLookups.set(request, { cookie: raw, reader: reader ?? null });
        return false;
      }
      metrics.hot.sessionHits++;
    } else if (file.kind === 'page' && options.recordView && headers.cookie !== undefined) {
      // A signed-in reader's view of an open page counts too ("what's new" knows what they
      // read): a session this gate does not hold yet goes the way that checks it and counts.
      const raw = readSession(headers.cookie);
      if (raw !== undefined) {
        reader = options.cachedReader(raw);
        if (!reader) return false;
      }
    }
    const encoding = chooseEncoding(headers['accept-encoding'], file);
    const id = typeof headers['x-request-id'] === 'string' ? headers['x-request-id'] : options.newRequestId();
    const list = headersFor(file, encoding);
    list[list.length - 1] = id;
    response.writeHead(200, list);
    response.end(file.bodies[encoding] ?? file.bodies.identity);
    if (reader && file.kind === 'page') options.recordView?.(reader, file.url);
    const ms = performance.now() - started;
    metrics.tally.count(answeredSlot(file), ms / 1000);
    metrics.hot.fastPathAnswers++;
    options.logRequest?.(id, request, 200, ms);
    return true;
  };
}

/** The hot path's answer: true when it answered the request, false when Fastify is to. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface FastPathServer {
  serverFactory: FastifyServerFactory;
  /** Asks `fastPath` first from now on. */
  use(fastPath: FastPath): void;
}

/**
 * Fastify's HTTP server with the fast path asked first (`serverFactory`); the path is set
 * once the routes it stands in for are ready (plugins/app/fast-path.ts).
 */
export function fastPathServer(): FastPathServer {
  let fastPath: FastPath | null = null;
  return {
    serverFactory: (handler, options) => {
      const server = createServer((request, response) => {
        if (fastPath === null || !fastPath(request, response)) handler(request, response);
      });
      // What Fastify sets on the servers it makes itself.
      const { keepAliveTimeout, requestTimeout, connectionTimeout, maxRequestsPerSocket } = options as {
        keepAliveTimeout?: number;
        requestTimeout?: number;
        connectionTimeout?: number;
        maxRequestsPerSocket?: number;
      };
      if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
      if (requestTimeout !== undefined) server.requestTimeout = requestTimeout;
      if (connectionTimeout !== undefined) server.setTimeout(connectionTimeout);
      if (maxRequestsPerSocket !== undefined && maxRequestsPerSocket > 0)
        server.maxRequestsPerSocket = maxRequestsPerSocket;
      return server;
    },
    use: (answer) => void (fastPath = answer),
  };
}
