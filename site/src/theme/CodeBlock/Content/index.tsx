import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import Content from '@theme-original/CodeBlock/Content';
import type ContentType from '@theme/CodeBlock/Content';
import type { WrapperProps } from '@docusaurus/types';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import { useCodeBlockContext } from '@docusaurus/theme-common/internal';

// Before any block highlights: the languages Prism no longer gets at start-up.
import '@site/src/prism/languages';

import styles from './styles.module.css';

type Props = WrapperProps<typeof ContentType>;

/** The attribute that names a code block's frame, the same on the server and in hydration. */
const FRAME = 'data-code-frame';

/**
 * The highlighted markup the server rendered for the frame `id`, while that markup is still
 * the page's own (the first render of a page load); null when there is none (a page reached
 * by in-app navigation, or React rendering afresh after a hydration error).
 */
function serverMarkup(id: string): string | null {
  if (!ExecutionEnvironment.canUseDOM) return null;
  return document.querySelector(`[${FRAME}="${CSS.escape(id)}"]`)?.innerHTML ?? null;
}

/**
 * (CUSTOM) Hydrates a code block from the markup the server already highlighted instead
 * of highlighting it again. The original tokenises every block with Prism during
 * hydration and builds a React element per token, only to arrive at the markup the page
 * already shows: on a page of long code samples that was the largest part of the
 * hydration work (Lighthouse `total-blocking-time`). A wrapper, not an ejection: the
 * server and every later client render (in-app navigation) still use the original.
 *
 * The frame is `display: contents`, so it adds no box and the layout is the original's.
 * React leaves the children of an element hydrated with `dangerouslySetInnerHTML` as
 * the server sent them; the word-wrap button's ref, which the original sets on the `pre`,
 * is pointed at that same `pre` here.
 */
export default function CodeBlockContentWrapper(props: Props): ReactNode {
  const id = useId();
  const [markup] = useState(() => serverMarkup(id));
  const frame = useRef<HTMLDivElement>(null);
  const { wordWrap } = useCodeBlockContext();
  useLayoutEffect(() => {
    if (markup === null) return;
    (wordWrap.codeBlockRef as { current: HTMLPreElement | null }).current =
      frame.current?.querySelector('pre') ?? null;
  }, [markup, wordWrap.codeBlockRef]);
  if (markup !== null) {
    return <div ref={frame} className={styles.frame} {...{ [FRAME]: id }} dangerouslySetInnerHTML={{ __html: markup }} />;
  }
  return (
    <div className={styles.frame} {...{ [FRAME]: id }}>
      <Content {...props} />
    </div>
  );
}
