// Font files imported for their URL (src/theme/Root.tsx preloads the body font).
declare module '*.woff2' {
  const url: string;
  export default url;
}
