// The highlighted code block, bundled where the pages are rendered: the server's bundle
// imports it at once, so every page's code blocks render the same way in every build. The
// browser's bundle has src/prism/not-in-browser.ts in its place (src/plugins/prism-off-startup.ts)
// and loads Prism on demand (src/theme/CodeBlock/Content).
export { default } from './highlighted';
