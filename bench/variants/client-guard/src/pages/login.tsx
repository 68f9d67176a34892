// Peer build "client-guard": the login page signs in with the SDK; the session is the
// SDK's own, kept in IndexedDB.
import { useState, type FormEvent, type ReactNode } from 'react';
import Layout from '@theme/Layout';
import { signInWithEmailAndPassword } from 'firebase/auth';
import { safeNextPath } from '@portal/access';

import { getPortalAuth } from '@site/src/auth/client-guard-firebase';

export default function Login(): ReactNode {
  const [error, setError] = useState('');
  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      await signInWithEmailAndPassword(getPortalAuth(), String(form.get('email')), String(form.get('password')));
      window.location.assign(safeNextPath(new URLSearchParams(window.location.search).get('next')));
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <Layout title="Login">
      <main className="container margin-vert--lg">
        <form onSubmit={(event) => void submit(event)}>
          <label>
            E-mail <input name="email" type="email" autoComplete="username" required />
          </label>
          <label>
            Password <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit">Sign in</button>
          {error && <p role="alert">{error}</p>}
        </form>
      </main>
    </Layout>
  );
}
