import type { LicenceEnding } from './session-store';

/** Who the reader is, as the components see it (the navbar, the login page, search). */
export type AuthState =
  | { status: 'loading'; email?: undefined }
  /**
   * `groups`: the reader's groups (`staff`, `partner`, `admin`…), sorted; may be empty.
   * `units`: the access units they hold (what they may read).
   */
  | {
      status: 'signedIn';
      email: string;
      groups: readonly string[];
      units: readonly string[];
      /** What they stop reading soon because their organisation's licence ends; null: nothing. */
      licenceEnding?: LicenceEnding | null;
    }
  | { status: 'signedOut'; email?: undefined };

export interface AuthContextValue {
  state: AuthState;
  /** Ends the session on the server and reloads `/`; rejects if the server did not confirm. */
  logout: () => Promise<void>;
}
