import type { FastifyServerOptions } from 'fastify';

/**
 * The server's structured logs (pino, through Fastify). Fastify logs method, URL, host
 * and address of each request, never headers or bodies; the redaction is a second guard
 * so that a cookie or token cannot reach the logs even if a serializer is added later.
 */
export function loggerOptions(level: string, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    level,
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
