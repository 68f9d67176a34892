import type { IncomingMessage } from 'node:http';

import fp from 'fastify-plugin';

import { markdownTwinOf } from '../../site.js';

// Only a path with `.md` (or a percent-escape) in it, or an Accept naming Markdown, can ask for a twin.
const MAYBE_MARKDOWN = /\.md|%/i;

/**
 * The router's `twin` constraint: `markdown` for a request of a Markdown twin, so that the
 * twins' route (which takes personal tokens) and the other files' route (sessions only) are
 * two routes, each with its own settings.
 */
export default fp(
  async (app) => {
    const { site } = app;
    app.addConstraintStrategy({
      name: 'twin',
      storage<Handler>() {
        const handlers = new Map<unknown, Handler>();
        return {
          get: (value: unknown) => handlers.get(value) ?? null,
          set: (value: unknown, handler: Handler) => void handlers.set(value, handler),
        };
      },
      deriveConstraint(request: IncomingMessage) {
        const url = request.url ?? '/';
        if (!MAYBE_MARKDOWN.test(url) && request.headers.accept?.includes('markdown') !== true) return undefined;
        const path = url.split('?', 1)[0] ?? '/';
        return markdownTwinOf(site, path, request.headers.accept) === undefined ? undefined : 'markdown';
      },
      mustMatchWhenDerived: false,
    });
  },
  { name: 'markdown-twins', dependencies: ['site'] },
);
