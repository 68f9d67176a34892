/**
 * The portal's public origin, for the absolute URLs a build writes: canonical links,
 * `og:url`, the social card and the sitemap. Read at build time from `SITE_URL`, else
 * from `PUBLIC_URL` (the gate server's setting for the same origin, so one variable serves
 * a deployment that builds and serves in the same environment), else the development
 * address. The gate server itself serves the build from any address.
 */
export const DEFAULT_SITE_URL = 'http://localhost:3000';

export function siteUrlFrom(env: Readonly<Record<string, string | undefined>>): string {
  const name = env.SITE_URL ? 'SITE_URL' : env.PUBLIC_URL ? 'PUBLIC_URL' : null;
  const raw = name === null ? DEFAULT_SITE_URL : (env[name] as string);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute URL such as https://developers.norigin.example (got "${raw}").`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new Error(
      `${name} must be an origin, http(s) with no path, query or fragment, such as https://developers.norigin.example (got "${raw}").`,
    );
  }
  return url.origin;
}
