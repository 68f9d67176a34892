import { possessive } from '@portal/contract/names';
import { useEffect, useState } from 'react';
import clsx from 'clsx';
import Head from '@docusaurus/Head';
import Link from '@docusaurus/Link';
import { useLocation } from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import { loginUrlFor, REQUEST_ACCESS } from '@portal/access';

import { useAuth } from '@site/src/auth/AuthProvider';
import { messageOf } from '@site/src/api/json-api';
import { accessRequestApi, dayOf, requestState, type RefusalAnswer } from '@site/src/components/access-requests/api';
import { askedPath, REFUSAL_SCRIPT } from '@site/src/components/access-requests/refusal';
import styles from '@site/src/components/access-requests/access-requests.module.css';

declare global {
  interface Window {
    __portalRefused?: string;
  }
}

/** Why, in words: the unit named, and what kept it from this reader. */
function Reason({ refusal }: { refusal: RefusalAnswer }): React.JSX.Element {
  const unit = <strong>{refusal.unitLabel}</strong>;
  const whose = refusal.organisation ? `${possessive(refusal.organisation)} licence` : 'Your account';
  switch (refusal.reason) {
    case 'internal':
      return (
        <p>
          This page is part of {unit}, which is internal to Norigin Media: it is for the company&apos;s own developers
          and is not licensed to partners.
        </p>
      );
    case 'ended':
      return (
        <p>
          This page is part of {unit}. {whose} for it ended on {dayOf(refusal.endedAt ?? '')}.
        </p>
      );
    case 'readable':
      return <p>This page is part of {unit}, and you can read it now.</p>;
    default:
      return (
        <p>
          This page is part of {unit}.{' '}
          {refusal.organisation ? `${whose} does not include it.` : 'Your account does not include it.'}
        </p>
      );
  }
}

/** The form that asks for the unit with a short reason, once. */
function AskForm({
  path,
  refusal,
  onAsked,
}: {
  path: string;
  refusal: RefusalAnswer;
  onAsked: (r: RefusalAnswer) => void;
}): React.JSX.Element {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function submit(event: React.FormEvent): Promise<void> {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const request = await accessRequestApi.ask(path, reason);
      onAsked({ ...refusal, canAsk: false, request });
    } catch (caught) {
      setError(messageOf(caught, 'Your request was not sent; try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className={styles.askForm} onSubmit={(event) => void submit(event)}>
      <label className={styles.field}>
        Why do you need {refusal.unitLabel}? <span className={styles.optional}>(optional, for the administrators)</span>
        <textarea value={reason} maxLength={500} rows={3} onChange={(event) => setReason(event.target.value)} />
      </label>
      <div className={styles.actions}>
        <button type="submit" className="button button--primary" disabled={busy}>
          Ask for access
        </button>
      </div>
      <p role="alert" className={styles.error}>
        {error}
      </p>
    </form>
  );
}

/**
 * The page a signed-in reader gets for a page outside their units (the gate's 403): which
 * unit the page belongs to, why this reader cannot read it, and a one-click request for it,
 * in the site's own frame (navbar, search, colour mode). Never a page's title or content.
 */
export default function RefusedPage(): React.JSX.Element {
  const { state } = useAuth();
  const location = useLocation();
  // The asked address is the browser's to know: unknown while the page hydrates.
  const isBrowser = useIsBrowser();
  const path = isBrowser ? askedPath(location.search, window.__portalRefused) : undefined;
  const [refusal, setRefusal] = useState<RefusalAnswer | null>(null);
  const [error, setError] = useState('');

  // Puts back the address the reader asked for (see refusal.ts), and reads why.
  useEffect(() => {
    if (path === undefined || path === null) return;
    if (window.__portalRefused === path) window.history.replaceState(window.history.state, '', path);
    accessRequestApi
      .refusal(path.split(/[?#]/, 1)[0] ?? path)
      .then(setRefusal, (caught: unknown) => setError(messageOf(caught, 'Could not find out why; try again shortly.')));
  }, [path]);

  const email = state.status === 'signedIn' ? state.email : null;
  // Who is asking, why and the ways on come after the first paint, together and at the end
  // of the page (the footer stays below the fold): what comes late only adds below what a
  // reader sees, so nothing moves (CLS 0), however long their address or organisation.
  const settled = path === null || refusal !== null || error !== '';
  return (
    <Layout title="No access to this page" description="A page of the portal that this account cannot read.">
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <main className={clsx('container', styles.page)}>
        {/* Before the app starts: see refusal.ts. */}
        <script dangerouslySetInnerHTML={{ __html: REFUSAL_SCRIPT }} />
        <Heading as="h1">You do not have access to this page</Heading>
        <section className={styles.reason} aria-live="polite" aria-busy={refusal === null && error === ''}>
          {email && settled ? (
            <p>
              You are signed in as <strong>{email}</strong>
              {refusal?.organisation ? <> of {refusal.organisation}</> : null}.
            </p>
          ) : null}
          {path === null ? (
            <p>There is no page to explain here. Pages you cannot read bring you here with their address.</p>
          ) : refusal === null ? (
            error ? (
              <p role="alert" className={styles.error}>
                {error}
              </p>
            ) : (
              <p className={styles.loading}>Finding out why…</p>
            )
          ) : (
            <>
              <Reason refusal={refusal} />
              {refusal.reason === 'readable' ? (
                <p>
                  <a href={path ?? '/'}>Open the page</a>
                </p>
              ) : refusal.canAsk && typeof path === 'string' ? (
                <AskForm path={path} refusal={refusal} onAsked={setRefusal} />
              ) : refusal.request ? (
                <p role="status">
                  Your request for {refusal.unitLabel}: {requestState(refusal.request)} You will see the answer on{' '}
                  <Link to="/account">your account page</Link>
                  {refusal.request.status === 'pending' ? ' and by e-mail' : ''}.
                </p>
              ) : (
                <p>
                  If you need it for your work, write to {REQUEST_ACCESS.label} at{' '}
                  <a href={`mailto:${REQUEST_ACCESS.email}`}>{REQUEST_ACCESS.email}</a>.
                </p>
              )}
            </>
          )}
        </section>
        {settled ? (
          <p className={styles.actions}>
            <Link className="button button--secondary" to="/">
              Go to the home page
            </Link>
            {typeof path === 'string' && <a href={loginUrlFor(path)}>Use another account</a>}
          </p>
        ) : null}
      </main>
    </Layout>
  );
}
