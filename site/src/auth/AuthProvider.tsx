import { createContext, startTransition, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

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
    ? {
        status: 'signedIn',
        email: session.email,
        groups: session.groups,
        units: session.units,
        licenceEnding: session.licenceEnding ?? null,
      }
    : { status: session.status };
}

/**
 * Who the reader is, for the whole app. It never holds back its children: the gate
 * server has already decided that this HTML may be shown, so the page renders at once
 * and only the auth-dependent bits (navbar item, login page) wait for the answer.
 *
 * The store's changes reach React in a transition (React renders them in short slices),
 * not through `useSyncExternalStore`, whose updates are synchronous: the session's answer
 * usually arrives while the page hydrates, and React then re-rendered every pending update
 * of the page (the phone layout, the code blocks' buttons, the colour mode) with it in one
 * long blocking task after hydration. The store has one value, so there is nothing to tear.
 */
export function AuthProvider({ children }: { children: ReactNode }): React.JSX.Element {
  // The server's state first, as hydration needs; the store's own from the first effect on.
  const [session, setSession] = useState<SessionState>(getServerSessionState);

  useEffect(() => {
    const update = (): void => {
      const next = getSessionState();
      startTransition(() => setSession(next));
    };
    const unsubscribe = subscribeSession(update);
    // The answer may have arrived before this subscription (the session client module asks early).
    update();
    void loadSession();
    return unsubscribe;
  }, []);

  const value = useMemo<AuthContextValue>(() => ({ state: toAuthState(session), logout: () => logout() }), [session]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (value === null) throw new Error('useAuth() needs an <AuthProvider> above it (see src/theme/Root.tsx).');
  return value;
}
