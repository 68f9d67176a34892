import type { FastifyServerOptions } from 'fastify';

/** Percent-escapes of characters a token is made of (and of `%`, so double encoding goes too): any spelling of a token reads as one. */
function decodeTokenCharacters(path: string): string {
  let decoded = path;
  for (let round = 0; round < 4; round++) {
    const next = decoded.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
      const character = String.fromCharCode(parseInt(hex, 16));
      return /[A-Za-z0-9_%-]/.test(character) ? character : escape;
    });
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}

/** A request URL fit for the logs: no query string, and no token even in the path, however it is encoded. */
export function redactUrl(url: string): string {
  const [path = '', query] = url.split('?', 2);
  const redacted = decodeTokenCharacters(path).replace(/norigin_pat_[A-Za-z0-9_-]*/gi, 'norigin_pat_[redacted]');
  return redacted + (query === undefined ? '' : '?[redacted]');
}

/** pino's level names as Cloud Logging's LogSeverity names. */
const SEVERITY: Record<string, string> = {
  trace: 'DEBUG',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARNING',
  error: 'ERROR',
  fatal: 'CRITICAL',
};

/**
 * The server's structured logs (pino, through Fastify). Fastify logs method, URL, host
 * and address of each request, never headers or bodies; the redaction is a second guard
 * so that a cookie or token cannot reach the logs even if a serializer is added later.
 */
export function loggerOptions(level: string, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    level,
    // The level by name, and Cloud Logging's severity beside it: its agents read `severity`,
    // and pino's numbers (30, 40) would all land as DEFAULT.
    formatters: { level: (label: string) => ({ level: label, severity: SEVERITY[label] ?? 'DEFAULT' }) },
    serializers: {
      // The path only: a query string can hold what a client should not have sent there (a
      // token pasted into a URL, search words), and the logs keep neither.
      req: (request: {
        method?: string;
        url?: string;
        host?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: request.method,
        url: redactUrl(request.url ?? ''),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'idToken',
        '*.idToken',
        'cookie',
        '*.cookie',
      ],
      censor: '[redacted]',
    },
    ...(stream ? { stream } : {}),
  };
}
