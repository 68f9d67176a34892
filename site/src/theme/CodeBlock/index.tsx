import { Children, isValidElement, type ReactNode } from 'react';
import Head from '@docusaurus/Head';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';
import type { Props } from '@theme/CodeBlock';
// Written by src/plugins/font-subsets at build time: the code font's core characters and weights.
import monoCore from '@generated/font-subsets/jetbrains-mono-core.woff2';

/** The children as one string when they are plain text (copyable), else as they are. */
function maybeStringifyChildren(children: ReactNode): ReactNode {
  if (Children.toArray(children).some((child) => isValidElement(child))) return children;
  return Array.isArray(children) ? children.join('') : children;
}

/**
 * (CUSTOM, ejected from Docusaurus 3.10) The original renders every code block a second
 * time right after hydration (`key={String(isBrowser)}`), because its Prism colours are
 * inline styles that differ by colour mode and the server only knows the light ones. The
 * portal's Prism theme is one for both modes, its colours CSS variables
 * (src/theme-code-colours.ts), so the server's markup is already right in either mode and
 * that second render, the largest main-thread task of a page full of code, is dropped. A
 * wrapper cannot remove a key the original sets inside itself; the rest is the original.
 */
/**
 * (CUSTOM) A page with a code block also preloads the code font (one link, however many
 * blocks), so it is there for the first layout: found only by that layout, it arrived after
 * the first paint and every line of code was laid out a second time, a long main-thread task
 * on a page full of code. Pages without code blocks do not download it for nothing.
 */
export default function CodeBlock({ children: rawChildren, ...props }: Props): ReactNode {
  const children = maybeStringifyChildren(rawChildren);
  return (
    <>
      <Head>
        <link rel="preload" href={monoCore} as="font" type="font/woff2" crossOrigin="anonymous" />
      </Head>
      {typeof children === 'string' ? (
        <StringContent {...props}>{children}</StringContent>
      ) : (
        <ElementContent {...props}>{children}</ElementContent>
      )}
    </>
  );
}
