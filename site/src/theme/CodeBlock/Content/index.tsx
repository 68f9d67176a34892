import {
  lazy,
  Suspense,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import clsx from 'clsx';
import type ContentType from '@theme/CodeBlock/Content';
import type { WrapperProps } from '@docusaurus/types';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import { useCodeBlockContext } from '@docusaurus/theme-common/internal';
// The highlighted block in the server's bundle; null in the browser's (src/plugins/prism-off-startup.ts).
import OnServer from '@site/src/prism/on-server';
// The original's own module: the same class names, so the plain stand-in below is laid
// out exactly as the highlighted block that replaces it.
import themeStyles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css';

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

// Prism and the original content component, in a chunk of their own (src/prism/highlighted).
let Highlighted: ComponentType<Props> | null = null;
let loading: Promise<{ default: ComponentType<Props> }> | null = null;
function loadHighlighted(): Promise<{ default: ComponentType<Props> }> {
  loading ??= import('@site/src/prism/highlighted').then((module) => {
    Highlighted = module.default;
    return module;
  });
  return loading;
}
const LazyHighlighted = lazy(loadHighlighted);
const ServerHighlighted = OnServer as ComponentType<Props> | null;

/** Until Prism has loaded (an in-app navigation soon after the page load): the code, plain. */
function PlainContent({ className }: Props): ReactNode {
  const {
    metadata,
    wordWrap: { codeBlockRef },
  } = useCodeBlockContext();
  return (
    <pre
      ref={codeBlockRef}
      tabIndex={0}
      className={clsx(className, themeStyles.codeBlock, 'thin-scrollbar', `prism-code language-${metadata.language}`)}
    >
      <code className={themeStyles.codeBlockLines}>{metadata.code}</code>
    </pre>
  );
}

/**
 * (CUSTOM) Hydrates a code block from the markup the server already highlighted instead
 * of highlighting it again, and keeps Prism out of the page load. The original tokenises
 * every block with Prism during hydration and builds a React element per token, only to
 * arrive at the markup the page already shows: on a page of long code samples that, and
 * evaluating Prism's grammars, were the largest main-thread tasks after the main bundle
 * (Lighthouse `total-blocking-time`). A wrapper, not an ejection: the server renders the
 * original, bundled with it, and every later client render (in-app navigation) uses it too,
 * loaded on demand with Prism (fetched when the reader first points at or focuses
 * something, so it is usually there before they navigate; until then a block rendered
 * afresh shows its code plain).
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
  const {
    wordWrap: { codeBlockRef },
  } = useCodeBlockContext();
  useLayoutEffect(() => {
    if (markup === null) return;
    codeBlockRef.current = frame.current?.querySelector('pre') ?? null;
  }, [markup, codeBlockRef]);
  useEffect(() => {
    if (markup === null || Highlighted) return undefined;
    // Fetched when the reader reaches for a link (as Docusaurus preloads the next page's
    // code), not while the page loads: it is only needed once they navigate.
    const events = ['pointerover', 'focusin', 'touchstart'] as const;
    const stop = (): void => {
      for (const type of events) document.removeEventListener(type, load, true);
    };
    const load = (): void => {
      stop();
      void loadHighlighted();
    };
    for (const type of events) document.addEventListener(type, load, { capture: true, passive: true });
    return stop;
  }, [markup]);
  if (markup !== null) {
    return (
      <div ref={frame} className={styles.frame} {...{ [FRAME]: id }} dangerouslySetInnerHTML={{ __html: markup }} />
    );
  }
  // The server renders the highlighted block at once: the same HTML in every build.
  if (ServerHighlighted) {
    return (
      <div className={styles.frame} {...{ [FRAME]: id }}>
        <ServerHighlighted {...props} />
      </div>
    );
  }
  return (
    <div className={styles.frame} {...{ [FRAME]: id }}>
      {Highlighted ? (
        <Highlighted {...props} />
      ) : (
        <Suspense fallback={<PlainContent {...props} />}>
          <LazyHighlighted {...props} />
        </Suspense>
      )}
    </div>
  );
}
