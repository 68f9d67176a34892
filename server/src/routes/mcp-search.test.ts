import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeToken, readyTestApp, signInCookie } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite } from '../test/test-site.js';

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** search_docs's result count and version: taken when valid, refused with a reason naming the argument otherwise. */
describe('MCP search_docs arguments', () => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    let readers: EmulatorReaders;
    ({ app, readers } = await readyTestApp(await makeTestSite()));
    const account = await readers.create({ groups: ['partner'] });
    token = await makeToken(app, await signInCookie(app, await readers.signIn(account.email, account.password)));
  });
  afterAll(() => app.close());

  const search = async (args: Record<string, unknown>) => {
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${token}`, ...MCP_HEADERS },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_docs', arguments: args } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as {
      result?: { isError?: boolean; content: { text: string }[]; structuredContent?: { results: unknown[] } };
      error?: { code: number; message: string };
    };
  };
  /** The reason a call was refused, whichever way the SDK says it (a JSON-RPC error or a tool error). */
  const refusal = (answer: Awaited<ReturnType<typeof search>>): string | null =>
    answer.error?.message ?? (answer.result?.isError ? (answer.result.content[0]?.text ?? '') : null);

  it('takes a result count from 1 to 20 and gives at most that many', async () => {
    for (const limit of [1, 20]) {
      const answer = await search({ query: 'layout', limit });
      expect(refusal(answer)).toBeNull();
      expect(answer.result?.structuredContent?.results.length).toBeLessThanOrEqual(limit);
    }
  });

  it.each([
    [{ limit: 0 }, /limit/],
    [{ limit: 21 }, /limit/],
    [{ limit: 2.5 }, /limit/],
    [{ limit: '5' }, /limit/],
    [{ version: 'latest' }, /version/],
    [{ version: '2.3' }, /version/],
    [{ version: '1.2.3.4' }, /version/],
  ])('refuses %j with a reason naming the argument', async (args, named) => {
    const answer = await search({ query: 'layout', ...args });
    const reason = refusal(answer);
    expect(reason).not.toBeNull();
    expect(reason).toMatch(named);
  });

  it('searches a release when given a version, and says when that release has no match', async () => {
    const answer = await search({ query: 'layout', version: '0.0.1' });
    expect(refusal(answer)).toBeNull();
    expect(answer.result?.content[0]?.text).toBe('No pages of version 0.0.1 match "layout".');
  });
});
