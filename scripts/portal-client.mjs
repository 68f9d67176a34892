// What a browser does to sign in, for scripts and tests that need a session without a
// browser: sign in with the Auth Emulator (as the Firebase SDK would), then hand the ID
// token to the gate's session API from the site's own origin.

/** Signs in with e-mail and password at the Auth Emulator; returns the fresh ID token. */
export async function signInWithPassword(emulatorHost, email, password) {
  const response = await fetch(
    `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const json = await response.json();
  if (!response.ok) throw new Error(`signInWithPassword: ${JSON.stringify(json.error ?? json)}`);
  return json.idToken;
}

/** Starts a gate session for an ID token; returns the `name=value` of the session cookie. */
export async function startSession(baseURL, idToken) {
  const response = await fetch(`${baseURL}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(baseURL).origin },
    body: JSON.stringify({ idToken }),
  });
  if (!response.ok) throw new Error(`POST /api/session: ${response.status} ${await response.text()}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0];
}
