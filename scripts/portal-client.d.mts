/** Signs in with e-mail and password at the Auth Emulator; returns the fresh ID token. */
export declare function signInWithPassword(emulatorHost: string, email: string, password: string): Promise<string>;
/** Starts a gate session for an ID token; returns the `name=value` of the session cookie. */
export declare function startSession(baseURL: string, idToken: string): Promise<string>;
