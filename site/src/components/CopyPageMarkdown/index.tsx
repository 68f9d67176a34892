import { useEffect, useRef, useState } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import { markdownUrl } from '@portal/built-site';

import styles from './styles.module.css';

type CopyState = { kind: 'idle' } | { kind: 'working' } | { kind: 'copied' } | { kind: 'failed'; message: string };

/** How long "Copied" stays before the button is ready to say it again. */
const CONFIRMATION_MS = 3000;

class MarkdownFetchError extends Error {}

/** The page's Markdown as the gate serves it to this reader (same cookie, same groups). */
async function fetchMarkdown(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'text/markdown' } });
  } catch {
    throw new MarkdownFetchError('the portal could not be reached');
  }
  if (response.status === 401) throw new MarkdownFetchError('your session has ended; sign in again');
  if (!response.ok) throw new MarkdownFetchError(`the portal answered ${response.status}`);
  return response.text();
}

/**
 * Copies the text. The promise form of ClipboardItem keeps the click's permission while
 * the Markdown downloads (Safari refuses a write that comes after an await); browsers
 * without it get the plain writeText once the text is there.
 */
async function copyToClipboard(text: Promise<string>): Promise<void> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard.write) {
    const blob = text.then((value) => new Blob([value], { type: 'text/plain' }));
    try {
      await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
      return;
    } catch (error) {
      // A failed download is the reason to show, not the clipboard's vaguer words for it.
      await text;
      throw error;
    }
  }
  await navigator.clipboard.writeText(await text);
}

/** "Copy page as Markdown": the page's `.md` twin, for pasting into a coding assistant. */
export default function CopyPageMarkdown({ permalink }: { permalink: string }): React.JSX.Element {
  const [state, setState] = useState<CopyState>({ kind: 'idle' });
  const timer = useRef<number | undefined>(undefined);
  const url = markdownUrl(permalink);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  function onClick(): void {
    window.clearTimeout(timer.current);
    setState({ kind: 'working' });
    const text = fetchMarkdown(url);
    copyToClipboard(text).then(
      () => {
        setState({ kind: 'copied' });
        timer.current = window.setTimeout(() => setState({ kind: 'idle' }), CONFIRMATION_MS);
      },
      (error: unknown) => {
        console.warn('Copying the page as Markdown failed:', error);
        setState({
          kind: 'failed',
          message:
            error instanceof MarkdownFetchError
              ? `Not copied: ${error.message}.`
              : 'Not copied: the browser did not allow it. Open the Markdown and copy it from there.',
        });
      },
    );
  }

  return (
    <div className={styles.bar}>
      {/* Both live regions are there from the start, so that what they later say is announced. */}
      <span className={styles.messages}>
        <span role="status" className={styles.copied}>
          {state.kind === 'copied' && 'Copied'}
        </span>
        <span role="alert" className={styles.failed}>
          {state.kind === 'failed' && (
            <>
              {state.message}{' '}
              <a href={url} target="_blank" rel="noopener">
                Open the Markdown
              </a>
            </>
          )}
        </span>
      </span>
      <button
        type="button"
        className={clsx('button button--sm button--outline button--secondary', styles.button)}
        onClick={onClick}
        disabled={state.kind === 'working'}
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M5 1.5A1.5 1.5 0 0 1 6.5 0h6A1.5 1.5 0 0 1 14 1.5v9a1.5 1.5 0 0 1-1.5 1.5h-6A1.5 1.5 0 0 1 5 10.5v-9Zm1.5-.25a.25.25 0 0 0-.25.25v9c0 .14.11.25.25.25h6a.25.25 0 0 0 .25-.25v-9a.25.25 0 0 0-.25-.25h-6ZM2 5.5A1.5 1.5 0 0 1 3.5 4H4v1.25h-.5a.25.25 0 0 0-.25.25v9c0 .14.11.25.25.25h6a.25.25 0 0 0 .25-.25V14H11v.5A1.5 1.5 0 0 1 9.5 16h-6A1.5 1.5 0 0 1 2 14.5v-9Z"
          />
        </svg>
        Copy page as Markdown
      </button>
      {/* Where an assistant, a script or a CI job reads the same pages: every signed-in reader has the page. */}
      <Link to="/account/assistant" className={styles.assistant}>
        Use with your assistant
      </Link>
    </div>
  );
}
