// Font files imported for their URL (src/theme/Root.tsx preloads the body font).
declare module '*.woff2' {
  const url: string;
  export default url;
}

// subset-font ships no types: the one call src/plugins/font-subsets makes.
declare module 'subset-font' {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: {
      targetFormat?: 'sfnt' | 'woff' | 'woff2' | 'truetype';
      variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
      keepFeatures?: string[];
    },
  ): Promise<Buffer>;
}

// theme-common's own reactUtils module (its package does not export the path), under the
// name src/plugins/no-collator-at-startup.ts gives it for src/startup/shallow-memo.ts.
declare module '@portal/theme-common-react-utils';

// Docusaurus core's own client entry, under the name src/plugins/staged-startup.ts gives
// it for src/startup/client-entry.ts, which runs it last.
declare module '@portal/docusaurus-client-entry';

// ReactDOM's client entry, which src/startup/client-entry.ts only evaluates (the site has
// no @types/react-dom: nothing of ours calls ReactDOM).
declare module 'react-dom/client';

// eval-estree-expression ships no types: the one call src/plugins/gate-files/mdx-values.ts makes.
declare module 'eval-estree-expression' {
  export const evaluate: {
    sync(
      expression: unknown,
      context?: Record<string, unknown>,
      options?: { functions?: boolean; strict?: boolean },
    ): unknown;
  };
}
