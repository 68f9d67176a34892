import { Children, isValidElement, type ReactNode } from 'react';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';
import type { Props } from '@theme/CodeBlock';

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
export default function CodeBlock({ children: rawChildren, ...props }: Props): ReactNode {
  const children = maybeStringifyChildren(rawChildren);
  if (typeof children === 'string') return <StringContent {...props}>{children}</StringContent>;
  return <ElementContent {...props}>{children}</ElementContent>;
}
