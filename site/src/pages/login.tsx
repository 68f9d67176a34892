import { useEffect, useRef, useState, type FormEvent } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import { useLocation } from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import { NEXT_PARAM, REQUEST_ACCESS, safeNextPath } from '@portal/access';

import { useAuth } from '@site/src/auth/AuthProvider';
import {
  firebaseErrorCode,
  NoAccessError,
  PortalSignInError,
  requestAccessHref,
  signInErrorMessage,
} from '@site/src/auth/errors';
import { prepareSignIn, signInWithEmail, signInWithGitHub } from '@site/src/auth/firebase-sign-in';

import styles from './login.module.css';

/** Where to go after signing in: the `next` parameter when it is a path on this site. */
function useNextPath(): string {
  const { search } = useLocation();
  return safeNextPath(new URLSearchParams(search).get(NEXT_PARAM));
}

type Method = 'email' | 'github';
type InvalidField = 'email' | 'password' | null;

function GitHubIcon(): React.JSX.Element {
  return (
    <svg className={styles.icon} viewBox="0 0 16 16" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M8 0C3.58 0 0 3.58 0 8c0 3.54 2.29 6.53 5.47 7.59.4.07.55-.17.55-.38 0-.19-.01-.82-.01-1.49-2.01.37-2.53-.49-2.69-.94-.09-.23-.48-.94-.82-1.13-.28-.15-.68-.52-.01-.53.63-.01 1.08.58 1.23.82.72 1.21 1.87.87 2.33.66.07-.52.28-.87.51-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59.82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82.64-.18 1.32-.27 2-.27.68 0 1.36.09 2 .27 1.53-1.04 2.2-.82 2.2-.82.44 1.1.16 1.92.08 2.12.51.56.82 1.27.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48 0 1.07-.01 1.93-.01 2.2 0 .21.15.46.55.38A8.013 8.013 0 0016 8c0-4.42-3.58-8-8-8z"
      />
    </svg>
  );
}

/**
 * What a reader whose account has no reader group is told (the server refused the session
 * with 403 "no-access"): who they signed in as, whom to ask, and a way back to the form.
 * The Firebase user is already signed out (startSession's finally), so another account
 * can sign in straight away.
 */
function NoAccess({
  email,
  nextPath,
  onTryAnother,
}: {
  email: string | null;
  nextPath: string;
  onTryAnother: () => void;
}): React.JSX.Element {
  // The button that had focus is gone with the form: move it to the way forward.
  const tryAnother = useRef<HTMLButtonElement>(null);
  useEffect(() => tryAnother.current?.focus(), []);

  return (
    <>
      <div role="alert" id="login-error" className={styles.alertRegion}>
        <div className="alert alert--warning">
          {email === null ? (
            'The account you signed in with has no access to the Norigin developer docs.'
          ) : (
            <>
              You are signed in with <strong>{email}</strong>, but this account has no access to the Norigin developer
              docs.
            </>
          )}
        </div>
      </div>
      <p>
        To ask for access, write to {REQUEST_ACCESS.label} at{' '}
        <a href={requestAccessHref(email, nextPath)}>{REQUEST_ACCESS.email}</a>. Or sign in with another account that
        has access.
      </p>
      <button ref={tryAnother} type="button" className="button button--primary button--block" onClick={onTryAnother}>
        Try another account
      </button>
    </>
  );
}

function LoginForm({ nextPath, prepare }: { nextPath: string; prepare: boolean }): React.JSX.Element {
  // The method that is signing in; it stays set after success until the next page loads.
  const [working, setWorking] = useState<Method | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [invalidField, setInvalidField] = useState<InvalidField>(null);
  // Set when the server refused the account for having no reader group: the form gives way.
  const [noAccess, setNoAccess] = useState<{ email: string | null } | null>(null);
  // Until React has hydrated, a click would submit the bare HTML form; the buttons wait.
  const hydrated = useIsBrowser();
  const disabled = !hydrated || working !== null;
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  // Fetch the SDK and its config while the reader types, so sign-in starts at once; not
  // before the session check says the reader needs it.
  useEffect(() => {
    if (prepare) prepareSignIn();
  }, [prepare]);

  async function run(method: Method, signIn: () => Promise<string>): Promise<void> {
    setWorking(method);
    setError(null);
    try {
      await signIn();
      // A full load: the server now sends the page the reader asked for with the cookie.
      window.location.assign(nextPath);
    } catch (caught: unknown) {
      if (caught instanceof NoAccessError) {
        console.warn(`${method === 'github' ? 'GitHub' : 'E-mail'} sign-in refused: the account has no access.`);
        setNoAccess({ email: caught.email });
        setWorking(null);
        return;
      }
      // The code or status, never the error object: Firebase puts the e-mail in its details.
      const detail =
        caught instanceof PortalSignInError
          ? `HTTP ${caught.status ?? 'no answer'}: ${caught.message}`
          : (firebaseErrorCode(caught) ?? 'unknown error');
      // Spec §8: a failed popup sign-in is logged as an error, a failed e-mail one as a warning.
      if (method === 'github') console.error('GitHub sign-in failed:', detail);
      else console.warn('E-mail sign-in failed:', detail);
      setError(signInErrorMessage(caught));
      setWorking(null);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (working) return;
    const emailInput = emailRef.current;
    const passwordInput = passwordRef.current;
    if (!emailInput || !passwordInput) return;
    const email = emailInput.value.trim();
    const password = passwordInput.value;
    // The form has noValidate so that these messages, not the browser's bubbles, explain
    // what is missing, in the same alert as every other sign-in error.
    let problem: [InvalidField, string] | null = null;
    if (email === '') problem = ['email', 'Enter your e-mail address.'];
    else if (emailInput.validity.typeMismatch) problem = ['email', 'Enter a valid e-mail address.'];
    else if (password === '') problem = ['password', 'Enter your password.'];
    if (problem) {
      setInvalidField(problem[0]);
      setError(problem[1]);
      (problem[0] === 'email' ? emailInput : passwordInput).focus();
      return;
    }
    setInvalidField(null);
    void run('email', () => signInWithEmail(email, password));
  }

  function onGitHub(): void {
    if (working) return;
    setInvalidField(null);
    void run('github', signInWithGitHub);
  }

  function onTryAnother(): void {
    setNoAccess(null);
    setError(null);
  }

  // Back on the form after "Try another account": start where the reader types.
  const showingForm = noAccess === null;
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) firstRender.current = false;
    else if (showingForm) emailRef.current?.focus();
  }, [showingForm]);

  if (noAccess !== null) return <NoAccess email={noAccess.email} nextPath={nextPath} onTryAnother={onTryAnother} />;

  return (
    <>
      <div role="alert" id="login-error" className={styles.alertRegion}>
        {error && <div className="alert alert--danger">{error}</div>}
      </div>
      {/* POST, so that even a native submission would never put the password in a URL. */}
      <form className={styles.form} method="post" onSubmit={onSubmit} noValidate aria-busy={working !== null}>
        <div className={styles.field}>
          <label htmlFor="login-email">E-mail</label>
          <input
            ref={emailRef}
            id="login-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            aria-invalid={invalidField === 'email'}
            aria-describedby={invalidField === 'email' ? 'login-error' : undefined}
            className={styles.input}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor="login-password">Password</label>
          <input
            ref={passwordRef}
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={invalidField === 'password'}
            aria-describedby={invalidField === 'password' ? 'login-error' : undefined}
            className={styles.input}
          />
        </div>
        <button type="submit" className="button button--primary button--block" disabled={disabled}>
          {working === 'email' ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className={styles.divider}>
        <span>or</span>
      </p>
      <button
        type="button"
        className={clsx('button button--secondary button--block', styles.github)}
        onClick={onGitHub}
        disabled={disabled}
      >
        <GitHubIcon />
        {working === 'github' ? 'Signing in…' : 'Sign in with GitHub'}
      </button>
    </>
  );
}

function SignedIn({ email, nextPath }: { email: string; nextPath: string }): React.JSX.Element {
  const { logout } = useAuth();
  const [state, setState] = useState<'idle' | 'working' | 'failed'>('idle');

  function onLogout(): void {
    setState('working');
    logout().catch((caught: unknown) => {
      console.error('Logout failed:', caught);
      setState('failed');
    });
  }

  return (
    <>
      <p>
        You are signed in as <strong>{email}</strong>.
      </p>
      <div role="alert" className={styles.alertRegion}>
        {state === 'failed' && <div className="alert alert--danger">Logout failed. Try again in a moment.</div>}
      </div>
      <div className={styles.actions}>
        <Link className="button button--primary" to={nextPath}>
          Continue
        </Link>
        <button type="button" className="button button--secondary" onClick={onLogout} disabled={state === 'working'}>
          Logout
        </button>
      </div>
    </>
  );
}

/**
 * The sign-in page, public like the home page. It renders the form straight away; a
 * reader who turns out to be signed in already gets a way on instead.
 */
export default function Login(): React.JSX.Element {
  const { state } = useAuth();
  const nextPath = useNextPath();

  return (
    <Layout title="Sign in" description="Sign in to read the Norigin developer documentation.">
      <main className={clsx('container', styles.page)}>
        <div className={styles.card}>
          <Heading as="h1">Sign in</Heading>
          {state.status === 'signedIn' ? (
            <SignedIn email={state.email} nextPath={nextPath} />
          ) : (
            <>
              <p>Sign in with your e-mail and password or your GitHub account to read the documentation.</p>
              <LoginForm nextPath={nextPath} prepare={state.status === 'signedOut'} />
            </>
          )}
        </div>
      </main>
    </Layout>
  );
}
