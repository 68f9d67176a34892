import { matchRoutes, type RouteConfig } from 'react-router-config';

/**
 * Whether `pathname` is a page of the route table `table`, by the route matching the
 * Docusaurus runtime renders with (react-router-config: case and a trailing slash are
 * ignored). The rule is Docusaurus's own (its normalizeLocation): a page is an exact route;
 * a path that only layout routes or the catch-all `*` match gets the not-found page.
 */
export function isAppRouteIn(table: readonly RouteConfig[], pathname: string): boolean {
  return matchRoutes([...table], pathname).some(({ route }) => route.exact === true);
}
