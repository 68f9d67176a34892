import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import clsx from 'clsx';
import { useLocation } from '@docusaurus/router';

import { useAuth } from '@site/src/auth/AuthProvider';

import { loadFeedback, saveFeedback, type Feedback } from './feedback-api';
import styles from './styles.module.css';

/**
 * "Was this page helpful?" with yes or no and an optional comment, for signed-in readers:
 * one answer per reader and page, which they can change. The administrators see the
 * answers per page in the insights. It keeps its height while the session loads, so the
 * page does not move when it appears.
 */
export default function PageFeedback(): React.JSX.Element {
  const { pathname } = useLocation();
  // A widget of its own per page: nothing of one page's answer carries over to the next.
  return <Question key={pathname} pathname={pathname} />;
}

function Question({ pathname }: { pathname: string }): React.JSX.Element {
  const { state } = useAuth();
  const [answer, setAnswer] = useState<Feedback | null>(null);
  const [draft, setDraft] = useState<{ helpful: boolean; comment: string } | null>(null);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const commentId = useId();
  const buttons = useRef<HTMLDivElement>(null);
  const signedIn = state.status === 'signedIn';

  useEffect(() => {
    if (!signedIn) return;
    let current = true;
    loadFeedback(pathname).then(
      (found) => {
        if (current) setAnswer(found);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [pathname, signedIn]);

  async function save(helpful: boolean, comment: string | null): Promise<void> {
    setStatus('saving');
    try {
      const saved = await saveFeedback(pathname, helpful, comment);
      setAnswer(saved);
      setStatus('saved');
    } catch {
      setStatus('failed');
    }
  }

  function choose(helpful: boolean): void {
    if (!signedIn || status === 'saving') return;
    setDraft({ helpful, comment: answer?.helpful === helpful ? (answer.comment ?? '') : '' });
    void save(helpful, answer?.helpful === helpful ? answer.comment : null);
  }

  function onSubmit(event: FormEvent): void {
    event.preventDefault();
    if (status === 'saving') return;
    if (!draft) return;
    const { helpful } = draft;
    void save(helpful, draft.comment.trim() || null).then(() => {
      setDraft(null);
      // The form goes with its Send button: focus stays in the widget, on the chosen answer.
      buttons.current?.querySelectorAll('button')[helpful ? 0 : 1]?.focus();
    });
  }

  if (state.status === 'signedOut') return <div className={styles.placeholder} aria-hidden="true" />;

  return (
    <section
      className={clsx(styles.feedback, state.status === 'loading' && styles.loading)}
      aria-labelledby={`${commentId}-q`}
    >
      {/* The id sits on the text, not the heading: a heading with an id is a section of the
          page's content (and its anchors), which this question is not. */}
      <h2 className={styles.question}>
        <span id={`${commentId}-q`}>Was this page helpful?</span>
      </h2>
      <div ref={buttons} className={styles.buttons} role="group" aria-labelledby={`${commentId}-q`}>
        <button
          type="button"
          className={clsx('button button--sm', answer?.helpful === true ? 'button--primary' : 'button--secondary')}
          aria-pressed={answer?.helpful === true}
          onClick={() => choose(true)}
          // Not `disabled`: a button disabled under the reader's focus drops it to the page body.
          aria-disabled={!signedIn || status === 'saving'}
        >
          Yes
        </button>
        <button
          type="button"
          className={clsx('button button--sm', answer?.helpful === false ? 'button--primary' : 'button--secondary')}
          aria-pressed={answer?.helpful === false}
          onClick={() => choose(false)}
          aria-disabled={!signedIn || status === 'saving'}
        >
          No
        </button>
      </div>
      {draft && (
        <form className={styles.form} onSubmit={onSubmit}>
          <label htmlFor={commentId}>
            {draft.helpful ? 'What helped? (optional)' : 'What was missing or wrong? (optional)'}
          </label>
          <textarea
            id={commentId}
            rows={3}
            maxLength={2000}
            value={draft.comment}
            onChange={(event) => setDraft({ ...draft, comment: event.target.value })}
          />
          <button type="submit" className="button button--sm button--primary" aria-disabled={status === 'saving'}>
            Send
          </button>
        </form>
      )}
      <p role="status" className={styles.status}>
        {status === 'saved' && !draft && 'Thank you: your answer is saved. You can change it at any time.'}
        {status === 'saved' && draft && 'Saved. Add a comment if you like.'}
        {status === 'failed' && 'Your answer could not be saved. Try again in a moment.'}
        {status === 'idle' &&
          answer &&
          !draft &&
          `You answered ${answer.helpful ? 'yes' : 'no'}${answer.comment ? ' with a comment' : ''}.`}
      </p>
    </section>
  );
}
