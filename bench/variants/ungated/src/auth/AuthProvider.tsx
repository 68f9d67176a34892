// Peer build "ungated": every reader counts as signed in and nothing asks the server.
import { createContext, useContext, type ReactNode } from 'react';

import type { AuthContextValue } from './auth-state';

const value: AuthContextValue = { state: { status: 'signedIn', email: '' }, logout: async () => {} };
const AuthContext = createContext<AuthContextValue>(value);

export function AuthProvider({ children }: { children: ReactNode }): React.JSX.Element {
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  return useContext(AuthContext);
}
