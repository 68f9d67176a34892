/** What the comparison needs of a symbol (the sync's model.json holds more). */
export interface ApiSymbolLike {
  name: string;
  kind: string;
  slug?: string;
  declaration: string;
  summary?: string;
  from?: string;
}

export interface ApiChanges<S extends ApiSymbolLike = ApiSymbolLike> {
  from: string;
  to: string;
  removed: S[];
  /** `before` is the declaration in `from`; `declaration` the one in `to`. */
  changed: (S & { before: string })[];
  added: S[];
}

/** A package's models in the build (`/docs/<section>/api/models.json`). */
export interface ApiModels<S extends ApiSymbolLike = ApiSymbolLike> {
  id: string;
  package: string;
  title: string;
  basePath: string;
  /** The newest documented release: its reference is at `<basePath>api/`. */
  latest: string;
  /** Every release in the range with a reference, newest first; `path` is set where the build made its pages. */
  versions: { version: string; date: string | null; path?: string; symbols: S[] }[];
}

export const API_MODELS_FILE: string;
export function apiModelsUrl(basePath: string): string;
export function isApiModelsUrl(url: string): boolean;
export function apiChanges<S extends ApiSymbolLike>(
  from: { version: string; symbols: S[] },
  to: { version: string; symbols: S[] },
): ApiChanges<S>;
