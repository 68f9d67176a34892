/**
 * Whether a path is a page of this app (see isAppRouteIn), against the generated route
 * table, which the main bundle holds already.
 */
import type { RouteConfig } from 'react-router-config';
import routes from '@generated/routes';

import { isAppRouteIn } from './route-match';

export function isAppRoute(pathname: string): boolean {
  return isAppRouteIn(routes as RouteConfig[], pathname);
}

/** Every page path of the app (its exact routes). */
export function appRoutePaths(): string[] {
  const paths: string[] = [];
  const walk = (table: readonly RouteConfig[]): void => {
    for (const route of table) {
      if (route.exact === true && typeof route.path === 'string') paths.push(route.path);
      if (route.routes) walk(route.routes);
    }
  };
  walk(routes as RouteConfig[]);
  return paths;
}
