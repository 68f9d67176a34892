import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import Link from '@docusaurus/Link';
import { useLocation } from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import useBaseUrl from '@docusaurus/useBaseUrl';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';

import {
  actionErrorMessage,
  firebaseErrorCode,
  passwordErrorMessage,
  signInErrorMessage,
  type ActionFailure,
} from '@site/src/auth/errors';
import {
  checkPasswordCode,
  setPasswordWithCode,
  signInWithEmail,
  verifyEmailCode,
} from '@site/src/auth/firebase-sign-in';

import styles from '../login.module.css';

/** What the link asks for, read from its query: Firebase's `mode` and `oobCode`, and the portal's `invite`. */
interface ActionLink {
  mode: string | null;
  code: string | null;
  /** A first password for an invited reader, not a reset. */
  invite: boolean;
}

type State =
  | { step: 'reading' }
  | { step: 'choose'; email: string; error: string | null }
  | { step: 'saving'; email: string }
  | { step: 'verified' }
  | { step: 'failed'; failure: ActionFailure };

/** More than a second: a sign-in this long after the password was set is never in its second. */
const REVOCATION_SECOND_MS = 1100;

const INCOMPLETE: ActionFailure = {
  message: 'This link is not complete. Open it again from the e-mail, or ask for a new one below.',
  askAgain: true,
};

/** The heading for what the link does. */
function titleOf(link: ActionLink | null): string {
  if (link?.mode === 'verifyEmail') return 'Verify your e-mail address';
  // Before the query is read (the page as served), the words of an invitation, its most common link.
  return link === null || link.invite ? 'Choose your password' : 'Choose a new password';
}

function PasswordForm({
  link,
  state,
  onSubmit,
}: {
  link: ActionLink;
  state: Extract<State, { step: 'choose' | 'saving' }>;
  onSubmit: (password: string) => void;
}): React.JSX.Element {
  const [password, setPassword] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const error = state.step === 'choose' ? state.error : null;
  useEffect(() => {
    if (state.step === 'choose') input.current?.focus();
  }, [state]);

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (state.step === 'saving') return;
    onSubmit(password);
  }

  return (
    <form className={styles.form} method="post" onSubmit={submit} noValidate>
      <p className={styles.help}>
        {link.invite ? 'You are invited to the Norigin developer docs as ' : 'For the account '}
        <strong>{state.email}</strong>. {link.invite ? 'Choose the password you will sign in with.' : ''}
      </p>
      {/* The account's address, for the browser's password manager to save the pair. */}
      <input type="email" name="email" autoComplete="username" value={state.email} readOnly hidden />
      <div className={styles.field}>
        <label htmlFor="new-password">Password</label>
        <input
          ref={input}
          id="new-password"
          className={styles.input}
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={error !== null}
          aria-describedby={error !== null ? 'new-password-error new-password-hint' : 'new-password-hint'}
        />
        <p id="new-password-hint" className={styles.help}>
          At least 6 characters; a passphrase of a few words is easy to remember and hard to guess.
        </p>
        {error !== null && (
          <p id="new-password-error" role="alert" className={styles.fieldError}>
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="button button--primary button--block" disabled={state.step === 'saving'}>
        {state.step === 'saving' ? 'Saving…' : link.invite ? 'Set password and sign in' : 'Save password and sign in'}
      </button>
    </form>
  );
}

/**
 * `/login/action`: the portal's own page for the links of its account e-mails (Firebase's
 * custom e-mail action handler), in place of Firebase's generic one. An invitation's link
 * (`mode=resetPassword&invite=1`) lets a new reader choose their first password and signs
 * them in; a reset's link a new password; a verification's link verifies the address. A link
 * that expired, was used or is cut short says so and offers a new one.
 */
export default function AccountAction(): React.JSX.Element {
  const logo = useBaseUrl('/img/logo.svg');
  // The query is read in the browser: the page is rendered without one.
  const isBrowser = useIsBrowser();
  const { search } = useLocation();
  const link = useMemo<ActionLink | null>(() => {
    if (!isBrowser) return null;
    const query = new URLSearchParams(search);
    return { mode: query.get('mode'), code: query.get('oobCode'), invite: query.get('invite') === '1' };
  }, [isBrowser, search]);
  const handled = link?.code ? link.mode === 'resetPassword' || link.mode === 'verifyEmail' : false;
  const [checked, setState] = useState<State>({ step: 'reading' });

  useEffect(() => {
    if (!link?.code || !handled) return;
    const fail = (caught: unknown) => {
      console.warn('Account link refused:', firebaseErrorCode(caught) ?? 'unknown error');
      setState({ step: 'failed', failure: actionErrorMessage(caught) });
    };
    if (link.mode === 'resetPassword')
      checkPasswordCode(link.code).then((email) => setState({ step: 'choose', email, error: null }), fail);
    else verifyEmailCode(link.code).then(() => setState({ step: 'verified' }), fail);
  }, [link, handled]);
  // A link without a code, or of a kind this page does not handle, needs no asking.
  const state: State = link !== null && !handled ? { step: 'failed', failure: INCOMPLETE } : checked;

  function onPassword(password: string): void {
    if (state.step !== 'choose' || !link?.code) return;
    const { email } = state;
    if (password.length === 0) {
      setState({ step: 'choose', email, error: 'Enter a password.' });
      return;
    }
    setState({ step: 'saving', email });
    const code = link.code;
    void (async () => {
      try {
        await setPasswordWithCode(code, password);
      } catch (caught: unknown) {
        const weak = passwordErrorMessage(caught);
        if (weak !== null) setState({ step: 'choose', email, error: weak });
        else setState({ step: 'failed', failure: actionErrorMessage(caught) });
        return;
      }
      // Setting a password revokes the account's sign-ins up to that second (Firebase counts
      // in whole seconds, and the gate refuses a sign-in from the same second): past it first.
      await new Promise((resolve) => setTimeout(resolve, REVOCATION_SECOND_MS));
      try {
        await signInWithEmail(email, password);
      } catch (caught: unknown) {
        // The password is set, only the sign-in after it failed: the sign-in page is the way on.
        const message = `Your password is set, but signing in failed: ${signInErrorMessage(caught)}`;
        setState({ step: 'failed', failure: { message, askAgain: false } });
        return;
      }
      // A full load: the server sends the next page with the new session's cookie.
      window.location.assign(link.invite ? '/account?welcome=1' : '/');
    })();
  }

  const title = titleOf(link);
  return (
    <Layout
      title={title}
      description="Choose your password or verify your e-mail address for the Norigin developer docs."
    >
      <main className={styles.page}>
        <div className={styles.card}>
          <img src={logo} alt="" width={40} height={40} className={styles.logo} />
          <Heading as="h1" className={styles.title}>
            {title}
          </Heading>
          {state.step === 'reading' && (
            <p role="status" className={styles.help}>
              Checking your link…
            </p>
          )}
          {(state.step === 'choose' || state.step === 'saving') && link && (
            <PasswordForm link={link} state={state} onSubmit={onPassword} />
          )}
          {state.step === 'verified' && (
            <>
              <p role="status">Your e-mail address is verified.</p>
              <Link className="button button--primary button--block" to="/login">
                Sign in
              </Link>
            </>
          )}
          {state.step === 'failed' && (
            <>
              <div role="alert" className={styles.alertRegion}>
                <div className="alert alert--danger">{state.failure.message}</div>
              </div>
              {state.failure.askAgain && (
                <Link className="button button--primary button--block" to="/login?reset=1">
                  Ask for a new link
                </Link>
              )}
              <p className={styles.forgot}>
                <Link to="/login">Back to sign in</Link>
              </p>
            </>
          )}
        </div>
      </main>
    </Layout>
  );
}
