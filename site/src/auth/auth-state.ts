import type { SessionState } from './session-store';

/**
 * Who the reader is, as the components see it (the navbar, the login page, search): signed
 * in as the session store knows it (the e-mail, groups, units and any licence ending soon).
 */
export type AuthState =
  | { status: 'loading'; email?: undefined }
  | Extract<SessionState, { status: 'signedIn' }>
  | { status: 'signedOut'; email?: undefined };

export interface AuthContextValue {
  state: AuthState;
  /** Ends the session on the server and reloads `/`; rejects if the server did not confirm. */
  logout: () => Promise<void>;
}
