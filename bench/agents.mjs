// What the coding-assistant surfaces cost, for a partner with a personal access token:
//  - MCP `read_page` and `search_docs` through the SDK's own client over Streamable HTTP,
//    and the search API (`/api/search`), p50/p95 over repeated calls;
//  - MCP `read_page` with an OAuth access token against a personal token, calls alternated;
//  - a token check vs a session check: the same page's Markdown (`.md`) read with
//    `Authorization: Bearer` and with the session cookie, under wrk, interleaved rounds.
// The gate it measures has page views off (both reads then do the same work apart from the
// check) and a token limit high enough for wrk (TOKEN_RATE_LIMIT): bench/run.mjs starts it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { oauthTokens } from '../tools/lib/oauth-client.mjs';
import { runWrk } from './gate.mjs';
import { median, percentile, round } from './lib.mjs';
import { ratioWithInterval } from './stats.mjs';

/** Pages a partner may read, as an assistant asks for them. */
export const AGENT_PAGES = [
  '/docs/player-manager-mono/packages/player-adapter-dash.js/',
  '/docs/layout-engine/',
  '/docs/ui-toolkit-mono/packages/hooks/',
  '/docs/whitelabel/',
  '/docs/Norigin-Spatial-Navigation/',
];
export const AGENT_QUERIES = ['dash.js', 'useFocusable', 'layout engine', 'whitelabel brand', 'tizen', 'subtitles'];
/** Symbols of the open package an assistant looks up, in its newest release and in 2.3.0. */
export const AGENT_SYMBOLS = [
  { package: '@noriginmedia/norigin-spatial-navigation', name: 'useFocusable' },
  { package: 'norigin-spatial-navigation', name: 'setFocus' },
  { package: 'norigin-spatial-navigation', name: 'FocusDetails', version: '2.3.0' },
  { package: 'norigin-spatial-navigation', name: 'init', version: '2.3.0' },
];

/** A personal access token for the reader of `cookie`, made through the account API. */
export async function createToken(baseURL, cookie, name = 'benchmark') {
  const response = await fetch(`${baseURL}/api/tokens`, {
    method: 'POST',
    headers: { cookie, origin: baseURL, 'content-type': 'application/json' },
    body: JSON.stringify({ name, days: 1 }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`making a token answered ${response.status}: ${JSON.stringify(body)}`);
  return body.token;
}

async function timed(call) {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

const summary = (samples) => ({ p50: round(median(samples), 2), p95: round(percentile(samples, 95), 2) });

/**
 * MCP `read_page` through an OAuth access token against the same calls with a personal token,
 * side by side: two SDK clients of the same reader, calls alternated, p50/p95 of each.
 */
export async function measureOAuthReadPage({ baseURL, cookie, token, repeats }) {
  const { accessToken } = await oauthTokens(baseURL, cookie, 'Benchmark assistant');
  const connect = async (secret) => {
    const client = new Client({ name: 'portal-bench', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${secret}` } },
      }),
    );
    return client;
  };
  const clients = { personal: await connect(token), oauth: await connect(accessToken) };
  const samples = { personal: [], oauth: [] };
  try {
    for (const client of Object.values(clients))
      await client.callTool({ name: 'read_page', arguments: { path: AGENT_PAGES[0] } });
    for (let r = 0; r < repeats; r++)
      for (const path of AGENT_PAGES)
        for (const name of r % 2 === 0 ? ['personal', 'oauth'] : ['oauth', 'personal'])
          samples[name].push(
            await timed(async () => {
              const result = await clients[name].callTool({ name: 'read_page', arguments: { path } });
              if (result.isError) throw new Error(`read_page with the ${name} token failed`);
            }),
          );
  } finally {
    for (const client of Object.values(clients)) await client.close();
  }
  const personal = summary(samples.personal);
  const oauth = summary(samples.oauth);
  return { personal, oauth, calls: samples.oauth.length, ratio: round(oauth.p95 / personal.p95, 3) };
}

export async function measureAgents({ baseURL, cookie, docPath, wrkPath, rounds, seconds, repeats, log }) {
  const token = await createToken(baseURL, cookie);
  const bearer = { Authorization: `Bearer ${token}` };

  const client = new Client({ name: 'portal-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), { requestInit: { headers: bearer } }),
  );
  const samples = { read_page: [], search_docs: [], search_api: [], get_symbol: [] };
  const check = (what, result) => {
    if (result.isError) throw new Error(`${what} failed: ${JSON.stringify(result.content)}`);
  };
  try {
    // One call of each first: the gate's search engine and caches warm up.
    check('read_page', await client.callTool({ name: 'read_page', arguments: { path: AGENT_PAGES[0] } }));
    check('search_docs', await client.callTool({ name: 'search_docs', arguments: { query: AGENT_QUERIES[0] } }));
    for (let r = 0; r < repeats; r++) {
      for (const path of AGENT_PAGES)
        samples.read_page.push(
          await timed(async () =>
            check('read_page', await client.callTool({ name: 'read_page', arguments: { path } })),
          ),
        );
      for (const symbol of AGENT_SYMBOLS)
        samples.get_symbol.push(
          await timed(async () =>
            check('get_symbol', await client.callTool({ name: 'get_symbol', arguments: symbol })),
          ),
        );
      for (const query of AGENT_QUERIES) {
        samples.search_docs.push(
          await timed(async () =>
            check('search_docs', await client.callTool({ name: 'search_docs', arguments: { query, limit: 8 } })),
          ),
        );
        samples.search_api.push(
          await timed(async () => {
            const response = await fetch(`${baseURL}/api/search?q=${encodeURIComponent(query)}&limit=8`, {
              headers: bearer,
            });
            const body = await response.json();
            if (response.status !== 200 || body.results.length === 0)
              throw new Error(
                `/api/search?q=${query} answered ${response.status} with ${body.results?.length} results`,
              );
          }),
        );
      }
    }
  } finally {
    await client.close();
  }
  const mcpRead = summary(samples.read_page);
  const mcpSearch = summary(samples.search_docs);
  const searchApi = summary(samples.search_api);
  const getSymbol = summary(samples.get_symbol);
  log(
    `  MCP read_page p95 ${mcpRead.p95} ms, search_docs p95 ${mcpSearch.p95} ms, get_symbol p95 ${getSymbol.p95} ms, /api/search p95 ${searchApi.p95} ms`,
  );

  // OAuth against a personal token, side by side in each round; the rounds give the interval.
  // Four times the calls of the other tools: a p95 of few calls is one garbage collection
  // away from doubling.
  const oauthRounds = [];
  for (let r = 0; r < rounds; r++) {
    const one = await measureOAuthReadPage({ baseURL, cookie, token, repeats: repeats * 4 });
    oauthRounds.push(one);
    log(
      `  OAuth ${r + 1}/${rounds}: MCP read_page p95 with an OAuth access token ${one.oauth.p95} ms, with a personal token ${one.personal.p95} ms (${one.ratio}×)`,
    );
  }
  const oauth = {
    oauth: { p95: round(median(oauthRounds.map((one) => one.oauth.p95)), 2) },
    personal: { p95: round(median(oauthRounds.map((one) => one.personal.p95)), 2) },
    calls: oauthRounds[0]?.calls ?? 0,
  };

  // The same Markdown, the same bytes, with a token and with a session.
  const markdown = `${baseURL}${docPath.replace(/\/$/, '')}.md`;
  const encoding = { 'Accept-Encoding': 'gzip' };
  const targets = [
    { name: 'token', headers: { ...encoding, ...bearer } },
    { name: 'session', headers: { ...encoding, Cookie: cookie } },
  ];
  let reference = null;
  for (const target of targets) {
    const response = await fetch(markdown, { headers: target.headers });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${markdown} with a ${target.name} answered ${response.status}`);
    if (reference && !reference.equals(body)) throw new Error(`${markdown}: the ${target.name} read other bytes`);
    reference ??= body;
  }
  const connections = 32;
  for (const target of targets) await runWrk(wrkPath, markdown, { seconds: 2, connections, headers: target.headers });
  const runs = { token: [], session: [] };
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + r) % targets.length];
      runs[target.name].push(await runWrk(wrkPath, markdown, { seconds, connections, headers: target.headers }));
    }
    log(
      `  Markdown ${r + 1}/${rounds}: token ${Math.round(runs.token[r].rps)}/s, session ${Math.round(runs.session[r].rps)}/s`,
    );
  }
  const stat = (name, key) => median(runs[name].map((run) => run[key]));
  return {
    'agents.reader': 'partner',
    'agents.calls_per_tool': samples.read_page.length,
    'agents.mcp_read_page_p50_ms': mcpRead.p50,
    'agents.mcp_read_page_p95_ms': mcpRead.p95,
    'agents.mcp_get_symbol_p50_ms': getSymbol.p50,
    'agents.mcp_get_symbol_p95_ms': getSymbol.p95,
    'agents.mcp_search_docs_p50_ms': mcpSearch.p50,
    'agents.mcp_search_docs_p95_ms': mcpSearch.p95,
    'agents.search_api_p50_ms': searchApi.p50,
    'agents.search_api_p95_ms': searchApi.p95,
    'agents.mcp_read_page_oauth_p95_ms': oauth.oauth.p95,
    'agents.mcp_read_page_personal_p95_ms': oauth.personal.p95,
    ...ratioWithInterval(
      'agents.mcp_read_page_oauth_vs_personal_p95',
      oauthRounds.map((one) => one.oauth.p95),
      oauthRounds.map((one) => one.personal.p95),
      { spreadKey: 'agents.mcp_read_page_oauth_vs_personal_spread' },
    ),
    'agents.mcp_read_page_oauth_rounds': oauthRounds.length,
    'agents.mcp_read_page_oauth_calls_per_round': oauth.calls,
    'agents.markdown_path': markdown.slice(baseURL.length),
    'agents.markdown_bytes': reference.length,
    'agents.token_rps': Math.round(stat('token', 'rps')),
    'agents.session_rps': Math.round(stat('session', 'rps')),
    ...ratioWithInterval(
      'agents.token_vs_session_rps',
      runs.token.map((run) => run.rps),
      runs.session.map((run) => run.rps),
      { of: 'ratioOfMedians' },
    ),
    'agents.token_p50_ms': round(stat('token', 'p50'), 2),
    'agents.session_p50_ms': round(stat('session', 'p50'), 2),
  };
}
