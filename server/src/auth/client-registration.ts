import { errors } from 'oidc-provider';

/*
 * What an anonymous client may register at /oauth/register (RFC 7591), beyond what
 * oidc-provider checks itself: a public client (PKCE, no secret), redirect URIs that are
 * loopback, HTTPS or a native app's own scheme, and a small record. Anyone may register, so
 * what a registration stores is bounded here.
 */

/** The longest client name kept, in characters (the consent page shows it). */
export const MAX_CLIENT_NAME = 100;
/** The most redirect URIs one client registers. */
export const MAX_REDIRECT_URIS = 5;
/** The longest redirect URI, in characters. */
export const MAX_REDIRECT_URI_LENGTH = 2000;
/** The largest metadata a client keeps, in bytes of JSON. */
export const MAX_CLIENT_METADATA_BYTES = 4096;

/** The hosts an `http://` redirect URI may name (RFC 8252 §7.3, and `localhost`, which MCP clients use). */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The metadata a client keeps: what the portal and the provider use. Anything else a
 * registration sends (logo, policy and terms URIs, contacts, keys) is dropped; RFC 7591 §3.2.1
 * lets a server leave out what it does not take, and the answer shows what was kept.
 */
const KEPT = new Set([
  'client_id',
  'client_id_issued_at',
  'client_name',
  'redirect_uris',
  'grant_types',
  'response_types',
  'token_endpoint_auth_method',
  'scope',
  'application_type',
]);

const refuse = (description: string): never => {
  // A description that starts with "redirect_uris" is answered as invalid_redirect_uri.
  throw new errors.InvalidClientMetadata(description);
};

/** The scheme of a native app's private-use redirect: a reverse domain name (RFC 8252 §7.1), `com.example.app:`. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/** Whether `uri` is a redirect URI a client may register; refuses it with the reason otherwise. */
function checkRedirectUri(uri: string): 'web' | 'native' {
  if (uri.length > MAX_REDIRECT_URI_LENGTH)
    refuse(`redirect_uris must each be at most ${MAX_REDIRECT_URI_LENGTH.toLocaleString('en')} characters`);
  const url = URL.parse(uri);
  // The provider refuses what is not a URI at all, in its own words.
  if (url === null) return 'web';
  if (url.username !== '' || url.password !== '') refuse('redirect_uris must not carry a user name or password');
  if (url.protocol === 'https:') return 'web';
  if (url.protocol === 'http:') {
    if (!LOOPBACK.has(url.hostname))
      refuse('redirect_uris may use http only on a loopback address (127.0.0.1, [::1] or localhost); use https');
    return 'web';
  }
  if (!PRIVATE_USE_SCHEME.test(url.protocol))
    refuse(
      `redirect_uris may be https, http on a loopback address, or a native app's scheme named by a reverse domain name such as com.example.app: (not ${url.protocol})`,
    );
  return 'native';
}

/**
 * Checks a registration's metadata (the provider's, as it will store it) and trims it to what
 * is kept; throws the provider's `InvalidClientMetadata` (400 `invalid_client_metadata`, or
 * `invalid_redirect_uri`) with a short reason. Types the provider checks itself (a name that
 * is not a string, URIs that are not an array) are left to it.
 */
export function checkRegistration(metadata: Record<string, unknown>): void {
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none')
    refuse('token_endpoint_auth_method must be none: this server registers public clients only (PKCE, no secret)');
  const name = metadata.client_name;
  if (typeof name === 'string' && name.length > MAX_CLIENT_NAME)
    refuse(`client_name must be at most ${MAX_CLIENT_NAME} characters`);
  const uris = metadata.redirect_uris;
  if (Array.isArray(uris)) {
    if (uris.length > MAX_REDIRECT_URIS) refuse(`redirect_uris must be at most ${MAX_REDIRECT_URIS}`);
    const kinds = uris.map((uri) => (typeof uri === 'string' ? checkRedirectUri(uri) : 'web'));
    // A native app's own scheme is for native clients (the provider then also keeps http to loopback).
    if (kinds.includes('native')) metadata.application_type = 'native';
  }
  for (const key of Object.keys(metadata)) if (!KEPT.has(key)) Reflect.deleteProperty(metadata, key);
  const bytes = Buffer.byteLength(JSON.stringify(metadata));
  if (bytes > MAX_CLIENT_METADATA_BYTES)
    refuse(
      `the client's metadata is ${bytes.toLocaleString('en')} bytes; at most ${MAX_CLIENT_METADATA_BYTES.toLocaleString('en')} are kept`,
    );
}
