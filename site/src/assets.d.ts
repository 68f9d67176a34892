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
