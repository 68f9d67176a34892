/** The policy file as written (`policy.js`). */
export interface PolicyFile {
  /** `reads`: `'all'` or the names of the units the group reads. */
  groups: Record<string, { label: string; reads: 'all' | readonly string[] }>;
  public: { routes: readonly string[]; sections: readonly string[] };
  /**
   * Access units. `groups`: read by exactly these groups (`'all'`: every group), whatever their
   * `reads` say. `whenLocked`: whether a signed-in reader who does not hold the unit sees it
   * listed, locked, in the sidebar (default: `'listed'` for a licensable unit, else `'hidden'`).
   */
  units: Record<
    string,
    {
      label?: string;
      paths: readonly string[];
      groups?: 'all' | readonly string[];
      whenLocked?: 'listed' | 'hidden';
    }
  >;
  accounts: { claim: string; emailDomains: readonly { domain: string; groups: readonly string[] }[] };
  requestAccess: { email: string; label?: string };
}

/**
 * Who may read something: everyone, or the units whose readers may (a page: its one unit;
 * a file that pages of several units load: each of them).
 */
export type Readers = 'public' | readonly string[];

export interface CompiledPolicy {
  readonly groups: readonly { readonly name: string; readonly label: string }[];
  readonly groupNames: readonly string[];
  /** Groups that read every unit. */
  readonly fullAccessGroups: readonly string[];
  /** The label of files no page loads: `[all-units]`, held by the groups that read every unit. */
  readonly fullAccess: readonly string[];
  /** Group → the units it reads (`all-units` last for a group that reads every unit). */
  readonly unitsOfGroup: ReadonlyMap<string, readonly string[]>;
  /** One per set of units a group reads: held by a reader of all of them, searched as one bundle. */
  readonly shelves: readonly { readonly name: string; readonly units: readonly string[] }[];
  readonly publicRoutes: readonly string[];
  readonly publicSections: readonly string[];
  readonly sectionPaths: readonly { readonly key: string; readonly section: string }[];
  /**
   * Every unit. `licensable`: a product a partner may be given and may ask for (a group that
   * does not read everything reads it); the others are the company's own or the portal's.
   */
  readonly units: readonly {
    readonly name: string;
    readonly label: string;
    readonly groups: readonly string[];
    readonly licensable: boolean;
    /** Shown, locked, in the sidebar of a signed-in reader who does not hold it. */
    readonly listed: boolean;
  }[];
  readonly unitNames: readonly string[];
  readonly domainRules: readonly { readonly domain: string; readonly groups: readonly string[] }[];
  readonly claim: string;
  readonly requestAccess: { readonly email: string; readonly label: string };
}

export declare const LOGIN_PATH: '/login';
export declare const NEXT_PARAM: 'next';
export declare const PUBLIC: 'public';
/** The unit only readers of every unit hold: the label of files no page loads. */
export declare const ALL_UNITS: 'all-units';

/** The checked-in policy file as written. */
export declare const policyFile: PolicyFile;
/** The checked-in policy, compiled. */
export declare const policy: CompiledPolicy;
export declare const GROUPS: CompiledPolicy['groups'];
export declare const REQUEST_ACCESS: CompiledPolicy['requestAccess'];

/** Checks a policy (every problem named at once) and compiles it for matching. */
export declare function compilePolicy(file: PolicyFile): CompiledPolicy;
/** The portal's route key (decoded, lower case, no trailing slash), or null if the path cannot name a page. */
export declare function normalizeRoute(rawPath: string): string | null;
/** Who may read a route: 'public', its unit (`[unit]`), or null when no rule matches. */
export declare function readersOf(rawPath: string, compiled?: CompiledPolicy): Readers | null;
/** The unit of a route: 'public', a unit name, or null. */
export declare function sectionOf(rawPath: string, compiled?: CompiledPolicy): string | null;
/** Whether a route is open to everyone; everything else is private. */
export declare function isPublicRoute(rawPath: string): boolean;
/** Whether a reader holding these units (null: signed out) may read a route. */
export declare function canRead(groups: readonly string[] | null, rawPath: string, compiled?: CompiledPolicy): boolean;
/** Whether a reader holding these units (null: signed out) is among `readers`. */
export declare function mayRead(groups: readonly string[] | null, readers: Readers | null): boolean;
/** An account's groups: its custom claim plus the e-mail-domain rules for verified addresses. */
export declare function groupsOfAccount(
  account: { email?: string | null; emailVerified?: boolean; claims?: Record<string, unknown> | null },
  compiled?: CompiledPolicy,
): string[];
/** The groups an administrator set in the custom claim (known names only). */
export declare function claimedGroups(
  claims: Record<string, unknown> | null | undefined,
  compiled?: CompiledPolicy,
): string[];
/** The units a reader with these groups holds, in the policy's order, then the shelves they hold. */
export declare function unitsOfGroups(groups: readonly string[], compiled?: CompiledPolicy): string[];
/** Holdings from held units: the policy's units in order, `all-units`, then every shelf whose units are all held. */
export declare function withShelves(units: Iterable<string>, compiled?: CompiledPolicy): string[];
/** Every search bundle the build makes: one per unit and one per shelf, with the units each covers. */
export declare function searchBundles(
  compiled?: CompiledPolicy,
): { id: string; readers: Readers; units: readonly string[] }[];
/** The id of a page's access unit: 'public' or the unit's name. */
export declare function unitId(readers: Readers): string;
/** Every access unit the policy can give a page, public first. */
export declare function accessUnits(compiled?: CompiledPolicy): { id: string; readers: Readers }[];
/** Where the build serves the search bundle of an access unit: `/search/<unit id>/`. */
export declare const SEARCH_ROOT: '/search/';
/** The search bundles a reader holding these units (null: signed out) searches: public first, then one per unit. */
export declare function searchBundlesFor(units: readonly string[] | null, compiled?: CompiledPolicy): string[];
/** The CSS classes that mark a link to something these readers may open. */
export declare function readersClass(readers: Readers | null, compiled?: CompiledPolicy): string;
/** The stylesheet that hides marked items from signed-in readers outside their units (a listed unit's sidebar item: its name only). */
export declare function accessStyles(compiled?: CompiledPolicy): string;
/** The selector of a sidebar item a signed-in reader sees listed but locked. */
export declare function lockedItemSelector(compiled?: CompiledPolicy): string;
/** `next` when it is a path on this site, else `/`. */
export declare function safeNextPath(next: unknown): string;
/** The login URL that returns the reader to `path` after signing in. */
export declare function loginUrlFor(path: string): string;
