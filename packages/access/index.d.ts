/** Routes open to everyone, as normalised keys (lower case, no trailing slash). */
export declare const PUBLIC_ROUTES: readonly string[];
/** Sections open to everyone with every page below them, matched as whole path segments. */
export declare const PUBLIC_SECTIONS: readonly string[];
export declare const LOGIN_PATH: '/login';
export declare const NEXT_PARAM: 'next';
/** The portal's route key (decoded, lower case, no trailing slash), or null if the path cannot name a page. */
export declare function normalizeRoute(rawPath: string): string | null;
/** Whether a route is public; everything else is private. */
export declare function isPublicRoute(rawPath: string): boolean;
/** `next` when it is a path on this site, else `/`. */
export declare function safeNextPath(next: unknown): string;
/** The login URL that returns the reader to `path` after signing in. */
export declare function loginUrlFor(path: string): string;
