import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import { useLocation } from '@docusaurus/router';
import useBaseUrl from '@docusaurus/useBaseUrl';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import { NEXT_PARAM, REQUEST_ACCESS, safeNextPath } from '@portal/access';

import { useAuth } from '@site/src/auth/AuthProvider';
import {
  fieldOfError,
  firebaseErrorCode,
  gitHubErrorMessage,
  NoAccessError,
  organisationErrorMessage,
  organisationRequiredMessage,
  PortalSignInError,
  requestAccessHref,
  resetErrorMessage,
  resetSentMessage,
  signInErrorMessage,
  type LoginField,
} from '@site/src/auth/errors';
import {
  domainOf,
  finishRedirectSignIn,
  prepareSignIn,
  sendPasswordReset,
  signInOptions,
  signInWithEmail,
  signInWithGitHub,
  signInWithOrganisation,
  type SignInOptions,
} from '@site/src/auth/firebase-sign-in';

import styles from './login.module.css';

/** Where to go after signing in: the `next` parameter when it is a path on this site. */
function useNextPath(): string {
  const { search } = useLocation();
  return safeNextPath(new URLSearchParams(search).get(NEXT_PARAM));
}

type Method = 'email' | 'github' | 'organisation';
type FieldErrors = Partial<Record<LoginField, string>>;

const ERROR_ID = 'login-error';
const fieldErrorId = (field: LoginField): string => `login-${field}-error`;
const ORGANISATION_NOTE_ID = 'login-organisation-note';

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

/** The form-wide message (role="alert"), focusable so a failure never leaves focus on nothing. */
function FormError({ message, focusRef }: { message: string | null; focusRef?: React.Ref<HTMLDivElement> }) {
  return (
    <div role="alert" id={ERROR_ID} className={styles.alertRegion} ref={focusRef} tabIndex={-1}>
      {message && <div className="alert alert--danger">{message}</div>}
    </div>
  );
}

/** A labelled field with its own error line, tied to the input by aria-describedby. */
function Field({
  id,
  field,
  label,
  error,
  describedBy,
  inputRef,
  hidden,
  ...input
}: {
  id: string;
  field: LoginField;
  label: string;
  error: string | undefined;
  /** Another message that is about this field too (the form-wide error). */
  describedBy?: string;
  inputRef: React.Ref<HTMLInputElement>;
  /** Left out of the form (not needed for this reader), yet kept so what was typed stays. */
  hidden?: boolean;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'id' | 'hidden'>): React.JSX.Element {
  const describers = [error ? fieldErrorId(field) : null, describedBy ?? null].filter(Boolean).join(' ');
  return (
    <div className={styles.field} hidden={hidden}>
      <label htmlFor={id}>{label}</label>
      <input
        ref={inputRef}
        id={id}
        className={styles.input}
        aria-invalid={Boolean(error) || Boolean(describedBy)}
        aria-describedby={describers || undefined}
        {...input}
      />
      {error && (
        <p id={fieldErrorId(field)} className={styles.fieldError}>
          {error}
        </p>
      )}
    </div>
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
      <div role="alert" id={ERROR_ID} className={styles.alertRegion}>
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

/**
 * "Forgot your password?": Firebase e-mails a link to its own page for choosing a new one.
 * Against the Auth Emulator no e-mail leaves the machine; the page says where the link is.
 */
function ResetPassword({ initialEmail, onBack }: { initialEmail: string; onBack: (email: string) => void }) {
  const [state, setState] = useState<
    | { step: 'form'; error: string | null }
    | { step: 'working' }
    | { step: 'sent'; email: string; mailbox: string | null }
  >({ step: 'form', error: null });
  const emailRef = useRef<HTMLInputElement>(null);
  const sentRef = useRef<HTMLDivElement>(null);
  const [email, setEmail] = useState(initialEmail);

  useEffect(() => emailRef.current?.focus(), []);
  useEffect(() => {
    if (state.step === 'sent') sentRef.current?.focus();
  }, [state.step]);

  async function onSubmit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const address = email.trim();
    const input = emailRef.current;
    if (address === '' || input?.validity.typeMismatch) {
      setState({
        step: 'form',
        error: address === '' ? 'Enter your e-mail address.' : 'Enter a valid e-mail address.',
      });
      input?.focus();
      return;
    }
    setState({ step: 'working' });
    try {
      const { mailbox } = await sendPasswordReset(address);
      setState({ step: 'sent', email: address, mailbox });
    } catch (caught: unknown) {
      const message = resetErrorMessage(caught);
      console.warn('Password reset failed:', firebaseErrorCode(caught) ?? 'unknown error');
      if (message === null) setState({ step: 'sent', email: address, mailbox: null });
      else {
        setState({ step: 'form', error: message });
        emailRef.current?.focus();
      }
    }
  }

  if (state.step === 'sent') {
    return (
      <>
        <div role="status" ref={sentRef} tabIndex={-1} className={styles.sent}>
          <p>{resetSentMessage(state.email)}</p>
          {state.mailbox !== null && (
            <p className={styles.emulatorNote}>
              This portal runs against the Firebase Auth Emulator, which sends no e-mail: the reset link is in{' '}
              <a href={state.mailbox} target="_blank" rel="noreferrer">
                the emulator’s list of sent e-mails
              </a>{' '}
              (its log of codes). Open the link with <code>&amp;newPassword=</code> and your new password added to its
              end.
            </p>
          )}
        </div>
        <button type="button" className="button button--secondary button--block" onClick={() => onBack(state.email)}>
          Back to sign in
        </button>
      </>
    );
  }

  return (
    <form className={styles.form} method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
      <p className={styles.help}>
        Enter the e-mail address of your account, and we will send you a link to choose a new password.
      </p>
      <Field
        id="reset-email"
        field="email"
        label="E-mail"
        error={state.step === 'form' ? (state.error ?? undefined) : undefined}
        inputRef={emailRef}
        name="email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <button type="submit" className="button button--primary button--block" disabled={state.step === 'working'}>
        {state.step === 'working' ? 'Sending…' : 'Send reset link'}
      </button>
      <button type="button" className={clsx(styles.textButton, styles.center)} onClick={() => onBack(email)}>
        Back to sign in
      </button>
    </form>
  );
}

function LoginForm({ nextPath, prepare }: { nextPath: string; prepare: boolean }): React.JSX.Element {
  // The method that is signing in; it stays set after success until the next page loads.
  const [working, setWorking] = useState<Method | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  // A wrong e-mail/password pair: the form-wide message is about both fields.
  const [credentialsRefused, setCredentialsRefused] = useState(false);
  // Set when the server refused the account for having no reader group: the form gives way.
  const [noAccess, setNoAccess] = useState<{ email: string | null } | null>(null);
  // `/login?reset=1` opens on the reset form (a spent link's "Ask for a new link", /login/action);
  // the reader's own choice wins from then on.
  const { search } = useLocation();
  const askedReset = useIsBrowser() && new URLSearchParams(search).get('reset') === '1';
  const [resetChoice, setResetting] = useState<boolean | null>(null);
  const resetting = resetChoice ?? askedReset;
  const [email, setEmail] = useState('');
  // How readers at the typed address's domain sign in: their organisation's own provider,
  // and whether a password may be used (asked once the address has a whole domain).
  const [options, setOptions] = useState<{ domain: string; value: SignInOptions } | null>(null);
  const domain = domainOf(email);
  const current = options !== null && options.domain === domain ? options.value : null;
  const provider = current?.provider ?? null;
  const passwordAllowed = current?.password ?? true;
  // Until React has hydrated, a click would submit the bare HTML form; the buttons wait.
  const hydrated = useIsBrowser();
  const disabled = !hydrated || working !== null;
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  // Fetch the SDK and its config once the reader shows they are signing in (types, or
  // points at or tabs to GitHub), so sign-in starts at once and the GitHub popup opens
  // straight from the click. Not at load: the SDK is the page's heaviest code, and it asks
  // Google for its popup helper as soon as it starts, which a reader who is only passing
  // through (or a machine without internet) should not pay for.
  const getReady = (): void => {
    if (prepare) prepareSignIn();
  };

  // What the reader typed before the page hydrated stays (a slow phone): the e-mail field is
  // controlled, and React would set it back to its first render's empty value.
  useLayoutEffect(() => {
    const typed = emailRef.current?.value;
    if (typed) setEmail(typed);
  }, []);

  // Ask how this domain's readers sign in once the reader pauses typing its address.
  useEffect(() => {
    if (!hydrated || domain === null) return;
    let live = true;
    const timer = setTimeout(() => {
      void signInOptions(`reader@${domain}`).then((value) => {
        if (live) setOptions({ domain, value });
      });
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [domain, hydrated]);

  // Back from the organisation's provider (the popup was blocked, so the page went there):
  // finish that sign-in.
  useEffect(() => {
    if (!prepare) return;
    finishRedirectSignIn().then(
      (signedIn) => {
        if (signedIn !== null) window.location.assign(nextPath);
      },
      (caught: unknown) => failed('organisation', caught, 'your organisation’s single sign-on'),
    );
    // Once, when the page knows the reader is signed out.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [prepare]);

  // The page is for signing in: start in the e-mail field, unless the reader is already
  // somewhere in the form. Tab then goes e-mail → password → Sign in → GitHub.
  useEffect(() => {
    if (!prepare) return;
    const active = document.activeElement;
    if (!active || active === document.body || !active.closest('form, [role="dialog"]')) emailRef.current?.focus();
  }, [prepare]);

  function fail(message: string, field: LoginField | null): void {
    setWorking(null);
    if (field === 'email') {
      setFieldErrors({ email: message });
      setFormError(null);
      setCredentialsRefused(false);
      emailRef.current?.focus();
    } else if (field === 'password') {
      // Which of the two was wrong is never said; the reader retypes the password.
      setFieldErrors({});
      setFormError(message);
      setCredentialsRefused(true);
      passwordRef.current?.focus();
      passwordRef.current?.select();
    } else {
      setFieldErrors({});
      setFormError(message);
      setCredentialsRefused(false);
      errorRef.current?.focus();
    }
  }

  async function run(method: Method, signIn: () => Promise<string>): Promise<void> {
    setWorking(method);
    setFormError(null);
    setFieldErrors({});
    setCredentialsRefused(false);
    try {
      await signIn();
      // A full load: the server now sends the page the reader asked for with the cookie.
      window.location.assign(nextPath);
    } catch (caught: unknown) {
      failed(method, caught, provider?.name ?? 'your organisation’s single sign-on');
    }
  }

  function failed(method: Method, caught: unknown, providerName: string): void {
    const label = { email: 'E-mail', github: 'GitHub', organisation: providerName }[method];
    if (caught instanceof NoAccessError) {
      console.warn(`${label} sign-in refused: the account has no access.`);
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
    if (method === 'github') {
      console.error('GitHub sign-in failed:', detail);
      const reach = { online: navigator.onLine, helperLoaded: 'gapi' in window };
      fail(gitHubErrorMessage(caught, reach), null);
    } else if (method === 'organisation') {
      console.error(`${label} sign-in failed:`, detail);
      fail(organisationErrorMessage(caught, providerName), null);
    } else {
      console.warn('E-mail sign-in failed:', detail);
      fail(signInErrorMessage(caught), fieldOfError(caught));
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (working) return;
    const emailInput = emailRef.current;
    const passwordInput = passwordRef.current;
    if (!emailInput || !passwordInput) return;
    const address = emailInput.value.trim();
    // Readers of an organisation that signs them in itself go there (Enter in the e-mail field).
    if (provider !== null && !passwordAllowed) {
      onOrganisation();
      return;
    }
    const password = passwordInput.value;
    // The form has noValidate so that these messages, not the browser's bubbles, explain
    // what is missing, each under its field.
    const problems: FieldErrors = {};
    if (address === '') problems.email = 'Enter your e-mail address.';
    else if (emailInput.validity.typeMismatch) problems.email = 'Enter a valid e-mail address.';
    if (password === '') problems.password = 'Enter your password.';
    if (problems.email || problems.password) {
      setFieldErrors(problems);
      setFormError(null);
      setCredentialsRefused(false);
      (problems.email ? emailInput : passwordInput).focus();
      return;
    }
    void run('email', async () => {
      // The domain's way of signing in, if the page did not know it yet: a password is not
      // sent where the organisation does not allow one (the gate would refuse it anyway).
      const known = await signInOptions(address);
      const at = domainOf(address);
      if (known.provider !== null && !known.password && at !== null) {
        setOptions({ domain: at, value: known });
        throw new PortalSignInError(organisationRequiredMessage(at, known.provider.name), 403);
      }
      return signInWithEmail(address, password);
    });
  }

  function onOrganisation(): void {
    if (working || provider === null) return;
    const { id } = provider;
    void run('organisation', () => signInWithOrganisation(id));
  }

  function onGitHub(): void {
    if (working) return;
    void run('github', signInWithGitHub);
  }

  function onTryAnother(): void {
    setNoAccess(null);
    setFormError(null);
  }

  // Back on the form after "Try another account" or a reset: start where the reader types.
  const showingForm = noAccess === null && !resetting;
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) firstRender.current = false;
    else if (showingForm) emailRef.current?.focus();
  }, [showingForm]);

  if (noAccess !== null) return <NoAccess email={noAccess.email} nextPath={nextPath} onTryAnother={onTryAnother} />;
  if (resetting)
    return (
      <ResetPassword
        initialEmail={email}
        onBack={(address) => {
          setEmail(address);
          setResetting(false);
        }}
      />
    );

  return (
    <>
      <FormError message={formError} focusRef={errorRef} />
      {/* POST, so that even a native submission would never put the password in a URL. */}
      <form className={styles.form} method="post" onSubmit={onSubmit} noValidate aria-busy={working !== null}>
        <Field
          id="login-email"
          field="email"
          label="E-mail"
          error={fieldErrors.email}
          describedBy={credentialsRefused ? ERROR_ID : undefined}
          inputRef={emailRef}
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            getReady();
          }}
        />
        {provider !== null && (
          <div className={styles.organisation}>
            <button
              type="button"
              className={clsx('button button--block', passwordAllowed ? 'button--secondary' : 'button--primary')}
              onClick={onOrganisation}
              onFocus={getReady}
              disabled={disabled}
              aria-describedby={ORGANISATION_NOTE_ID}
            >
              {working === 'organisation' ? 'Signing in…' : `Continue with ${provider.name}`}
            </button>
            <p id={ORGANISATION_NOTE_ID} className={styles.help}>
              {passwordAllowed
                ? `Your organisation signs you in with ${provider.name}; a portal password works too.`
                : `Readers at ${domain} sign in with ${provider.name}; no portal password is needed.`}
            </p>
          </div>
        )}
        <Field
          hidden={!passwordAllowed}
          id="login-password"
          field="password"
          label="Password"
          error={fieldErrors.password}
          describedBy={credentialsRefused ? ERROR_ID : undefined}
          inputRef={passwordRef}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          onChange={getReady}
        />
        {passwordAllowed && (
          <button type="submit" className="button button--primary button--block" disabled={disabled}>
            {working === 'email' ? 'Signing in…' : 'Sign in'}
          </button>
        )}
      </form>
      {passwordAllowed && (
        <OtherWays
          onGitHub={onGitHub}
          getReady={getReady}
          disabled={disabled}
          working={working}
          hydrated={hydrated}
          onReset={() => setResetting(true)}
        />
      )}
    </>
  );
}

/** GitHub and the password reset: the ways besides the organisation's own, where they may be used. */
function OtherWays({
  onGitHub,
  getReady,
  disabled,
  working,
  hydrated,
  onReset,
}: {
  onGitHub: () => void;
  getReady: () => void;
  disabled: boolean;
  working: Method | null;
  hydrated: boolean;
  onReset: () => void;
}): React.JSX.Element {
  return (
    <>
      <p className={styles.divider}>
        <span>or</span>
      </p>
      <button
        type="button"
        className={clsx('button button--block', styles.github)}
        onClick={onGitHub}
        onPointerEnter={getReady}
        onFocus={getReady}
        disabled={disabled}
      >
        <GitHubIcon />
        {working === 'github' ? 'Signing in…' : 'Sign in with GitHub'}
      </button>
      <p className={styles.forgot}>
        <button type="button" className={styles.textButton} onClick={onReset} disabled={!hydrated}>
          Forgot your password?
        </button>
      </p>
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
 * The sign-in page, public like the home page. It says where the reader is going, renders
 * the form straight away, and a reader who turns out to be signed in already gets a way
 * on instead.
 */
export default function Login(): React.JSX.Element {
  const { state } = useAuth();
  const nextPath = useNextPath();
  const logo = useBaseUrl('/img/logo.svg');
  // The server renders /login without its query: the destination is known once the page runs.
  const destination = useIsBrowser() ? nextPath : '/';

  return (
    <Layout title="Sign in" description="Sign in to read the Norigin developer documentation.">
      <main className={styles.page}>
        <div className={styles.card}>
          <img src={logo} alt="" width={40} height={40} className={styles.logo} />
          <Heading as="h1" className={styles.title}>
            Sign in
          </Heading>
          {/* One line either way (the styles keep it so), so nothing moves when it is filled in. */}
          {destination === '/' ? (
            <p className={styles.destination}>to read the Norigin developer docs</p>
          ) : (
            <p className={styles.destination}>
              to continue to <code className={styles.destinationPath}>{destination}</code>
            </p>
          )}
          {state.status === 'signedIn' ? (
            <SignedIn email={state.email} nextPath={nextPath} />
          ) : (
            <LoginForm nextPath={nextPath} prepare={state.status === 'signedOut'} />
          )}
        </div>
        <p className={styles.askAccess}>
          No account, or no access to what you need?{' '}
          <a href={requestAccessHref(null, destination)}>Ask {REQUEST_ACCESS.label} for access</a>
        </p>
      </main>
    </Layout>
  );
}
