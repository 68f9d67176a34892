// Peer build "client-guard": who the reader is comes from the Firebase user that Root holds.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { signOut, type User } from 'firebase/auth';
import { policy, unitsOfGroups } from '@portal/access';

import type { AuthContextValue } from './auth-state';
import { getPortalAuth } from './client-guard-firebase';

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ user, children }: { user: User | null; children: ReactNode }): React.JSX.Element {
  const value = useMemo<AuthContextValue>(
    () => ({
      // The specification's portal: every signed-in account reads everything.
      state: user
        ? {
            status: 'signedIn',
            email: user.email ?? '',
            groups: policy.groupNames,
            units: unitsOfGroups(policy.groupNames),
          }
        : { status: 'signedOut' },
      logout: async () => {
        await signOut(getPortalAuth());
        window.location.assign('/');
      },
    }),
    [user],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (value === null) throw new Error('useAuth() needs an <AuthProvider> above it.');
  return value;
}
