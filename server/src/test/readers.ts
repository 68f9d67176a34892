import { randomUUID } from 'node:crypto';

/** Administrator and client calls to the Auth Emulator's REST API, as Firebase clients make them. */
export class EmulatorReaders {
  constructor(
    readonly host: string,
    readonly projectId: string,
  ) {}

  private async call(path: string, body: unknown, admin = true): Promise<Record<string, unknown>> {
    const url = path.startsWith('/v1/accounts:')
      ? `http://${this.host}/identitytoolkit.googleapis.com${path}?key=demo-api-key`
      : `http://${this.host}/identitytoolkit.googleapis.com/v1/projects/${this.projectId}${path}`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(admin ? { authorization: 'Bearer owner' } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json;
  }

  /** A new reader of its own, so tests that revoke or disable never touch each other. */
  async create(password = 'correct-horse-9'): Promise<{ uid: string; email: string; password: string }> {
    const uid = `t-${randomUUID()}`;
    const email = `${uid}@readers.example`;
    await this.call('/accounts', { localId: uid, email, password, emailVerified: true });
    return { uid, email, password };
  }

  /** Signs in as the browser SDK does and returns the fresh ID token. */
  async signIn(email: string, password: string): Promise<string> {
    const json = await this.call(
      '/v1/accounts:signInWithPassword',
      { email, password, returnSecureToken: true },
      false,
    );
    return json.idToken as string;
  }

  async disable(uid: string): Promise<void> {
    await this.call('/accounts:update', { localId: uid, disableUser: true });
  }

  async remove(uid: string): Promise<void> {
    await this.call('/accounts:delete', { localId: uid });
  }

  async revoke(uid: string): Promise<void> {
    // What revokeRefreshTokens does: move validSince to now. Sleep past the second first,
    // since Firebase compares whole seconds.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await this.call('/accounts:update', { localId: uid, validSince: String(Math.floor(Date.now() / 1000)) });
  }
}
