/**
 * The classic theme's code block content, which highlights with Prism, together with the
 * extra languages Prism needs: loaded on demand (src/theme/CodeBlock/Content), so a page
 * whose code blocks hydrate from the server's markup never downloads or runs Prism.
 */
import './languages';

export { default } from '@theme-original/CodeBlock/Content';
