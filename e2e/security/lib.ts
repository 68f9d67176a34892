import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** `npm run test:security` sets this; `npm test` runs the bounded form. */
export const full = process.env.SECURITY_FULL === '1';

/** The gate's cookie signing key in the browser-test run (see playwright.config.ts). */
export const E2E_SESSION_SECRET = 'e2e-only-secret-for-the-gate-server-cookies';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The text of a body, looking inside gzip too: the search engine's index and fragment
 * files (`.pf_*`, `.pagefind`) are gzip-compressed, so a leak there is only visible unpacked.
 */
export function searchableText(body: string): string {
  const bytes = Buffer.from(body, 'latin1');
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return body + gunzipSync(bytes).toString('latin1');
    } catch {
      return body;
    }
  }
  return body;
}

/**
 * One HTTP/1.1 request with the path sent exactly as given: no URL parsing, no dot-segment
 * removal, no re-encoding (fetch would tidy the very tricks the crawl tries). Bodies are
 * decompressed the way a browser would.
 */
export function rawRequest(
  baseURL: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: hostname,
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
        insecureHTTPParser: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          let body = Buffer.concat(chunks);
          try {
            if (response.headers['content-encoding'] === 'br') body = brotliDecompressSync(body);
            if (response.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
          } catch {
            // a truncated or mislabelled body is still searched as sent
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: body.toString('latin1') });
        });
      },
    );
    request.on('error', reject);
    if (options.body !== undefined) request.write(options.body);
    request.end();
  });
}

/** Signs a value the way the gate signs its cookie (HMAC-SHA256, as @fastify/cookie does). */
export function signForGate(value: string, secret = E2E_SESSION_SECRET): string {
  const mac = createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '');
  return encodeURIComponent(`${value}.${mac}`);
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned (`alg: none`) session cookie as the Auth Emulator mints them, with chosen claims. */
export function unsignedSessionCookie(claims: Record<string, unknown>): string {
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
}

/** Claims of a session cookie for `uid` in `projectId`, valid now unless changed. */
export function sessionClaims(uid: string, email: string, projectId = 'demo-norigin-portal'): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `https://session.firebase.google.com/${projectId}`,
    aud: projectId,
    auth_time: now,
    user_id: uid,
    sub: uid,
    iat: now,
    exp: now + 3600,
    email,
    email_verified: true,
    firebase: { identities: { email: [email] }, sign_in_provider: 'password' },
  };
}

/** A small deterministic random source, so a failing fuzz case can be replayed. */
export { seededRandom as prng } from '../../tools/lib/seeded-random.mjs';
