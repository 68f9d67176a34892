// Peer build "ungated": every reader counts as signed in and nothing asks the server.
import { createContext, useContext, type ReactNode } from 'react';

import { policy, unitsOfGroups } from '@portal/access';

import type { AuthContextValue } from './auth-state';

// Every group and so every unit, so the reader searches and sees everything, as without a gate.
const value: AuthContextValue = {
  state: { status: 'signedIn', email: '', groups: policy.groupNames, units: unitsOfGroups(policy.groupNames) },
  logout: async () => {},
};
const AuthContext = createContext<AuthContextValue>(value);

export function AuthProvider({ children }: { children: ReactNode }): React.JSX.Element {
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  return useContext(AuthContext);
}
