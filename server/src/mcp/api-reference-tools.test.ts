import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiModels } from '@portal/built-site/api-reference';

import { makeToken, readyTestApp, signInCookie } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, miniSite, miniSiteFileReaders } from '../test/test-site.js';

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** A package's models as the build leaves them, with two releases: one function changed, one removed, one added. */
function models(id: string, pkg: string, basePath: string): ApiModels {
  const setFocus = (declaration: string) => ({
    name: 'setFocus',
    slug: 'setFocus',
    kind: 'function',
    declaration,
    summary: 'Moves the focus to the component with this key.',
  });
  return {
    id,
    package: pkg,
    title: id,
    basePath,
    latest: '2.0.0',
    versions: [
      {
        version: '2.0.0',
        date: null,
        path: `${basePath}api/`,
        symbols: [
          setFocus('function setFocus(key: string, options?: FocusOptions): Promise<void>'),
          { name: 'resume', slug: 'resume', kind: 'function', declaration: 'function resume(): void', summary: '' },
        ],
      },
      {
        version: '1.0.0',
        date: null,
        path: `${basePath}1.0.0/api/`,
        symbols: [
          setFocus('function setFocus(key: string): void'),
          { name: 'pause', slug: 'pause', kind: 'function', declaration: 'function pause(): void', summary: '' },
        ],
      },
    ],
  };
}

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

describe('MCP get_symbol and api_changes', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;

  beforeAll(async () => {
    const site = await makeTestSite(
      {
        ...miniSite,
        'docs/Norigin-Spatial-Navigation/api/index.html': page('API reference'),
        'docs/Norigin-Spatial-Navigation/api/setFocus/index.html': page('setFocus'),
        'docs/Norigin-Spatial-Navigation/api/setFocus.md': '# setFocus\n\n## Parameters\n\n### key\n',
        'docs/Norigin-Spatial-Navigation/api/models.json': JSON.stringify(
          models('nav', '@noriginmedia/norigin-spatial-navigation', '/docs/Norigin-Spatial-Navigation/'),
        ),
        // A package only staff read: for partners it does not exist.
        'docs/frontend-guidelines/api/index.html': page('API reference'),
        'docs/frontend-guidelines/api/models.json': JSON.stringify(
          models('guides', '@noriginmedia/guides-kit', '/docs/frontend-guidelines/'),
        ),
        // Models a partner may read beside a symbol page they may not: the page's own labels count.
        'docs/layout-engine/api/index.html': page('API reference'),
        'docs/layout-engine/api/setFocus.md': '# setFocus\n\nLayout canary: only staff read this page.\n',
        'docs/layout-engine/api/models.json': JSON.stringify(
          models('layout', '@noriginmedia/layout-kit', '/docs/layout-engine/'),
        ),
      },
      {
        ...miniSiteFileReaders,
        '/docs/layout-engine/api/models.json': 'public',
        '/docs/layout-engine/api/setFocus.md': ['internal'],
        '/docs/Norigin-Spatial-Navigation/api/models.json': 'public',
        '/docs/Norigin-Spatial-Navigation/api/setFocus.md': 'public',
        '/docs/frontend-guidelines/api/models.json': ['internal'],
      },
    );
    ({ app, readers } = await readyTestApp(site));
  });
  afterAll(() => app.close());

  const tokenOf = async (groups: string[]): Promise<string> => {
    const account = await readers.create({ groups });
    return makeToken(app, await signInCookie(app, await readers.signIn(account.email, account.password)));
  };
  const call = async (token: string, name: string, args: Record<string, unknown>) => {
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${token}`, ...MCP_HEADERS },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().result as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent?: Record<string, unknown>;
    };
  };

  it("answers a symbol's declaration, docs and reference page in the newest release, or the one asked for", async () => {
    const token = await tokenOf(['partner']);
    const newest = await call(token, 'get_symbol', { package: 'norigin-spatial-navigation', name: 'setFocus' });
    expect(newest.isError).toBeUndefined();
    expect(newest.structuredContent).toMatchObject({
      version: '2.0.0',
      kind: 'function',
      declaration: 'function setFocus(key: string, options?: FocusOptions): Promise<void>',
      url: '/docs/Norigin-Spatial-Navigation/api/setFocus',
    });
    expect(newest.content[0]?.text).toContain('Moves the focus to the component with this key.');
    // The reference page's Markdown follows, parameters and all.
    expect(newest.content[0]?.text).toContain('### key');
    const older = await call(token, 'get_symbol', {
      package: '@noriginmedia/norigin-spatial-navigation',
      name: 'pause',
      version: '1.0.0',
    });
    expect(older.structuredContent).toMatchObject({ version: '1.0.0', declaration: 'function pause(): void' });
    const gone = await call(token, 'get_symbol', { package: 'nav', name: 'pause' });
    expect(gone.isError).toBe(true);
    expect(gone.content[0]?.text).toContain('exports no pause');
  });

  it('lists what was removed, changed and added between two releases', async () => {
    const token = await tokenOf(['partner']);
    const changes = await call(token, 'api_changes', { package: 'nav', from: '1.0.0', to: '2.0.0' });
    expect(changes.structuredContent).toMatchObject({
      removed: [{ name: 'pause' }],
      changed: [{ name: 'setFocus', before: 'function setFocus(key: string): void' }],
      added: [{ name: 'resume' }],
    });
    expect(changes.content[0]?.text).toMatch(/Removed \(1\):\n- pause/);
  });

  it("keeps a package outside the reader's units out of both tools, as if it did not exist", async () => {
    const partner = await tokenOf(['partner']);
    for (const [name, args] of [
      ['get_symbol', { package: 'guides', name: 'setFocus' }],
      ['api_changes', { package: '@noriginmedia/guides-kit', from: '1.0.0' }],
    ] as const) {
      const answer = await call(partner, name, args);
      expect(answer.isError).toBe(true);
      expect(answer.content[0]?.text).toBe(
        `No API reference of ${args.package}. Use list_sections to see the packages.`,
      );
    }
    const layout = await call(partner, 'get_symbol', { package: 'layout', name: 'setFocus' });
    expect(layout.structuredContent).toMatchObject({ package: '@noriginmedia/layout-kit', version: '2.0.0' });
    expect(layout.content[0]?.text).not.toContain('Layout canary');
    const staff = await tokenOf(['staff']);
    const staffLayout = await call(staff, 'get_symbol', { package: 'layout', name: 'setFocus' });
    expect(staffLayout.content[0]?.text).toContain('Layout canary');
    const read = await call(staff, 'get_symbol', { package: 'guides', name: 'setFocus' });
    expect(read.structuredContent).toMatchObject({ package: '@noriginmedia/guides-kit', version: '2.0.0' });
  });
});
