/**
 * The whole environment a rebuild's process gets: a build runs package content through
 * Docusaurus and TypeDoc, so it sees none of the gate's secrets, only what the build reads.
 */

/**
 * What the build reads: the system's basics (PATH finds node and npm, HOME their .npmrc and
 * cache), the certificates the machine trusts (a registry or git host behind a company's TLS
 * proxy is reached only with them), the site's address (site/src/site-url.ts,
 * scripts/site-hash.mjs), the sources file, the site folder (scripts/build-if-stale.mjs) and
 * the bundler switch (packages/sync/paths.js, site/docusaurus.config.ts).
 */
export const BUILD_READS = [
  'PATH',
  'HOME',
  'NODE_ENV',
  'TMPDIR',
  'LANG',
  'TZ',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'GIT_SSL_CAINFO',
  'SITE_URL',
  'PUBLIC_URL',
  'PORTAL_SOURCES_FILE',
  'PORTAL_SITE_DIR',
  'PORTAL_BUNDLER',
] as const;

/** `SOURCES_BUILD_ENV`'s form: names of variables separated by commas. */
export const NAMES_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)*$';

/**
 * The build's environment: `BUILD_READS` and the `passed` names (such as a private registry's
 * token, which .npmrc names) as `env` has them, and the content cache the gate reads, so both
 * read the same one.
 */
export function buildEnvironment(
  env: NodeJS.ProcessEnv,
  passed: readonly string[],
  cacheDir: string,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of [...BUILD_READS, ...passed]) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  picked.PORTAL_SOURCES_CACHE = cacheDir;
  return picked;
}
