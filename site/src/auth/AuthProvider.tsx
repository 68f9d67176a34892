import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';

import {
  getServerSessionState,
  getSessionState,
  loadSession,
  logout,
  subscribeSession,
  type SessionState,
} from './session-store';

import type { AuthContextValue, AuthState } from './auth-state';

export type { AuthContextValue, AuthState };

const AuthContext = createContext<AuthContextValue | null>(null);

function toAuthState(session: SessionState): AuthState {
  // An unreadable session answer is shown as signed out: the reader can still sign in.
  return session.status === 'signedIn'
    ? { status: 'signedIn', email: session.email, groups: session.groups }
    : { status: session.status };
}

/**
 * Who the reader is, for the whole app. It never holds back its children: the gate
 * server has already decided that this HTML may be shown, so the page renders at once
 * and only the auth-dependent bits (navbar item, login page) wait for the answer.
 */
export function AuthProvider({ children }: { children: ReactNode }): React.JSX.Element {
  const session = useSyncExternalStore(subscribeSession, getSessionState, getServerSessionState);

  useEffect(() => {
    void loadSession();
  }, []);

  const value = useMemo<AuthContextValue>(() => ({ state: toAuthState(session), logout: () => logout() }), [session]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (value === null) throw new Error('useAuth() needs an <AuthProvider> above it (see src/theme/Root.tsx).');
  return value;
}
