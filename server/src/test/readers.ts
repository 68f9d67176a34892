import { randomUUID } from 'node:crypto';

import { emulatorRequest } from '../../../tools/lib/emulator.mjs';
import { signInWithPassword } from '../../../scripts/portal-client.mjs';

/** Administrator and client calls to the Auth Emulator's REST API, as Firebase clients make them. */
export class EmulatorReaders {
  constructor(
    readonly host: string,
    readonly projectId: string,
  ) {}

  private call(path: string, body: unknown): Promise<Record<string, unknown>> {
    return emulatorRequest(this.host, this.projectId, path, body);
  }

  /**
   * A new reader of its own, so tests that revoke or disable never touch each other: in
   * the given groups (the `groups` custom claim; none makes an account with no access),
   * at another domain than the company's unless `email` says otherwise.
   */
  async create({
    groups = ['staff'],
    email,
    emailVerified = true,
    password = 'correct-horse-9',
  }: { groups?: string[]; email?: string; emailVerified?: boolean; password?: string } = {}): Promise<{
    uid: string;
    email: string;
    password: string;
  }> {
    const uid = `t-${randomUUID()}`;
    const address = email ?? `${uid}@readers.example`;
    await this.call('/accounts', { localId: uid, email: address, password, emailVerified });
    if (groups.length > 0) await this.setGroups(uid, groups);
    return { uid, email: address, password };
  }

  /** Sets the reader's `groups` custom claim, as an administrator does. */
  async setGroups(uid: string, groups: string[]): Promise<void> {
    await this.call('/accounts:update', { localId: uid, customAttributes: JSON.stringify({ groups }) });
  }

  /** Signs in as the browser SDK does and returns the fresh ID token. */
  async signIn(email: string, password: string): Promise<string> {
    return signInWithPassword(this.host, email, password);
  }

  /**
   * Signs in through an organisation's OIDC provider (`oidc.…`) as the browser SDK does after
   * the provider's redirect, and returns the fresh ID token. The emulator takes the provider's
   * ID token unsigned (`alg: none`) and makes or finds the account of its `sub`.
   */
  async signInWithOidc(
    providerId: string,
    claims: { sub: string; email?: string; email_verified?: boolean; name?: string },
  ): Promise<string> {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const idToken = `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
    const response = await fetch(
      `http://${this.host}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          requestUri: 'http://localhost',
          returnSecureToken: true,
          postBody: new URLSearchParams({ providerId, id_token: idToken }).toString(),
        }),
      },
    );
    if (!response.ok) throw new Error(`accounts:signInWithIdp answered ${response.status}: ${await response.text()}`);
    const answer = (await response.json()) as { idToken?: string };
    if (!answer.idToken) throw new Error(`accounts:signInWithIdp gave no ID token: ${JSON.stringify(answer)}`);
    return answer.idToken;
  }

  /** Spends a password link's one-time code, as the portal's /login/action page does (the SDK's confirmPasswordReset). */
  async setPasswordWithCode(oobCode: string, newPassword: string): Promise<void> {
    const response = await fetch(
      `http://${this.host}/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ oobCode, newPassword }),
      },
    );
    if (!response.ok) throw new Error(`accounts:resetPassword answered ${response.status}: ${await response.text()}`);
  }

  /** Gives the account a password, as an administrator's reset would (SCIM-made readers have none). */
  async setPassword(uid: string, password: string): Promise<void> {
    await this.call('/accounts:update', { localId: uid, password });
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
