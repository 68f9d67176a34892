// Renders bench/results/latest.json as the tables in docs/performance.md (between the
// `results:start` and `results:end` markers), formatted by Prettier like the rest.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as prettier from 'prettier';

import { LIGHTHOUSE_GOALS, root } from './lib.mjs';

const fmt = (value, unit = '') => (value === null || value === undefined ? 'not measured' : `${value}${unit}`);

function verdict(value, test) {
  if (value === null || value === undefined) return 'not measured';
  return test(value) ? 'yes' : '**no**';
}

/** The ratios whose every round the bench keeps (`<key>_spread`). */
const ROUNDS_KEPT = new Set([
  'build.faster_vs_webpack_wall',
  'gate.private_vs_public_rps',
  'gate.private_vs_nginx_rps',
  'gate.recorded_vs_unrecorded_rps',
  'gate.private_vs_node_http_rps',
  'client.lcp_vs_ungated',
  'client.lcp_vs_client_guard',
]);

/**
 * A ratio's goal is met when the median meets it and so does every round: a median that
 * meets it while a round misses is within the run's spread, not met. A run from before the
 * rounds were kept says so.
 */
function ratioVerdict(r, key, test) {
  const median = verdict(r[key], test);
  if (median !== 'yes' || !ROUNDS_KEPT.has(key)) return median;
  const rounds = r[`${key}_spread`];
  if (!Array.isArray(rounds)) return 'yes (median; rounds not kept)';
  return rounds.every(test) ? 'yes' : '**within spread**';
}

/** The ratio, with the range of its rounds when the run kept them. */
function ratioCell(r, key) {
  const rounds = r[`${key}_spread`];
  if (!Array.isArray(rounds) || rounds.length === 0) return fmt(r[key]);
  return `${fmt(r[key])} (rounds ${Math.min(...rounds)} to ${Math.max(...rounds)})`;
}

function ratioRows(r) {
  const rows = [
    // [figure, key, portal, peer, goal text, goal test]
    [
      'Build wall time, Faster vs webpack',
      'build.faster_vs_webpack_wall',
      fmt(r['build.faster_wall_s'], ' s'),
      fmt(r['build.webpack_wall_s'], ' s'),
      '≤ 0.40',
      (x) => x <= 0.4,
    ],
    [
      'Build peak memory, Faster vs webpack',
      'build.faster_vs_webpack_peak_rss',
      fmt(r['build.faster_peak_rss_mib'], ' MiB'),
      fmt(r['build.webpack_peak_rss_mib'], ' MiB'),
      '(reported)',
      null,
    ],
    [
      "Gate requests/s, private page with a partner's session vs public page of the same bytes",
      'gate.private_vs_public_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.public_rps'], '/s'),
      '≥ 0.80',
      (x) => x >= 0.8,
    ],
    [
      "Gate requests/s, private page with a partner's session vs nginx serving the file",
      'gate.private_vs_nginx_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.nginx_rps'], '/s'),
      '≥ 0.50',
      (x) => x >= 0.5,
    ],
    [
      'Gate requests/s, private page with page views recorded in the audit trail vs not recorded',
      'gate.recorded_vs_unrecorded_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.private_unrecorded_rps'], '/s'),
      '≥ 0.95',
      (x) => x >= 0.95,
    ],
    [
      'Requests/s, Node.js `http` alone (same response) vs nginx: the floor under any Node.js gate',
      'gate.node_http_vs_nginx_rps',
      fmt(r['gate.node_http_rps'], '/s'),
      fmt(r['gate.nginx_rps'], '/s'),
      '(reported)',
      null,
    ],
    [
      "Gate requests/s, private page with a partner's session (page views recorded) vs Node.js `http` alone, same request and bytes",
      'gate.private_vs_node_http_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.node_http_rps'], '/s'),
      '≥ 0.80',
      (x) => x >= 0.8,
    ],
    [
      'Gate requests/s, private page, page views not recorded, vs Node.js `http` alone, same request and bytes',
      'gate.private_unrecorded_vs_node_http_rps',
      fmt(r['gate.private_unrecorded_rps'], '/s'),
      fmt(r['gate.node_http_rps'], '/s'),
      '(reported)',
      null,
    ],
    [
      'Gate requests/s, private page (page views recorded) vs Node.js `http` asked without the session cookie',
      'gate.private_vs_node_http_bare_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.node_http_bare_rps'], '/s'),
      '(reported)',
      null,
    ],
    [
      'Requests/s, the gate’s public page vs Node.js `http` alone: what Fastify and the gate add',
      'gate.public_vs_node_http_rps',
      fmt(r['gate.public_rps'], '/s'),
      fmt(r['gate.node_http_rps'], '/s'),
      '(reported)',
      null,
    ],
    [
      'Doc page first-load JS (brotli bytes) vs ungated build',
      'client.doc_page_js_vs_ungated',
      fmt(r['client.doc_page_js_kib'], ' KiB'),
      fmt(r['client.doc_page_js_kib_ungated'], ' KiB'),
      '≤ 1.05',
      (x) => x <= 1.05,
    ],
    [
      'Doc page first-load JS (brotli bytes) vs client-guard build',
      'client.doc_page_js_vs_client_guard',
      fmt(r['client.doc_page_js_kib'], ' KiB'),
      fmt(r['client.doc_page_js_kib_client_guard'], ' KiB'),
      '(lower is better)',
      null,
    ],
    [
      'Doc page LCP, signed in, vs ungated build',
      'client.lcp_vs_ungated',
      fmt(r['client.lcp_ms'], ' ms'),
      fmt(r['client.lcp_ms_ungated'], ' ms'),
      '≤ 1.1',
      (x) => x <= 1.1,
    ],
    [
      'Doc page LCP, signed in, vs client-guard build',
      'client.lcp_vs_client_guard',
      fmt(r['client.lcp_ms'], ' ms'),
      fmt(r['client.lcp_ms_client_guard'], ' ms'),
      '< 0.5',
      (x) => x < 0.5,
    ],
    [
      'Lighthouse performance of the doc page, mobile, vs the ungated build',
      'lighthouse.doc.mobile.performance_vs_ungated',
      fmt(r['lighthouse.doc.mobile.performance']),
      fmt(r['lighthouse.doc_ungated.mobile.performance']),
      '(reported)',
      null,
    ],
  ];
  return [
    '| figure | key | portal | peer | ratio | goal | met |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      ([figure, key, portal, peer, goal, test]) =>
        `| ${figure} | \`${key}\` | ${portal} | ${peer} | ${ratioCell(r, key)} | ${goal} | ${test ? ratioVerdict(r, key, test) : '–'} |`,
    ),
  ].join('\n');
}

function growthRows(r) {
  const portalRate =
    r['build.portal_pages'] && r['build.faster_wall_s']
      ? (r['build.portal_pages'] / r['build.faster_wall_s']).toFixed(1)
      : 'not measured';
  const row = (label, n, goal, met) =>
    `| ${label} | ${fmt(r[`build.pages_${n}`])} | ${fmt(r[`build.wall_s_${n}`], ' s')} | ${fmt(r[`build.bundle_s_${n}`], ' s')} | ${fmt(r[`build.ssg_s_${n}`], ' s')} | ${fmt(r[`build.pages_per_s_${n}`])} | ${fmt(r[`build.peak_rss_mib_${n}`], ' MiB')} | ${goal} | ${met} |`;
  return [
    '| build | pages | wall time | bundling | static rendering | pages/s | peak memory | goal | met |',
    '|---|---|---|---|---|---|---|---|---|',
    `| portal (\`build.faster_wall_s\`) | ${fmt(r['build.portal_pages'])} | ${fmt(r['build.faster_wall_s'], ' s')} | | | ${portalRate} | ${fmt(r['build.faster_peak_rss_mib'], ' MiB')} | – | – |`,
    row('portal + 500 generated docs (`build.pages_per_s_500`)', 500, '–', '–'),
    row(
      'portal + 2,000 generated docs (`build.pages_per_s_2000`)',
      2000,
      '≥ 40 pages/s',
      verdict(r['build.pages_per_s_2000'], (x) => x >= 40),
    ),
    `| growth, pages/s at 2,000 ÷ at 500 (\`build.growth_2000_vs_500\`) | | | | | ${fmt(r['build.growth_2000_vs_500'])} | | ≥ 0.90 (linear is 1.0) | ${verdict(r['build.growth_2000_vs_500'], (x) => x >= 0.9)} |`,
  ].join('\n');
}

function latencyRows(r) {
  return [
    '| gate load | requests/s | p50 | p99 |',
    '|---|---|---|---|',
    ...['private', 'public', 'nginx', 'node_http'].map(
      (name) =>
        `| ${{ private: `gate, private page, ${r['gate.private_reader'] ?? 'a partner'}'s session`, public: 'gate, public page, same bytes', nginx: 'nginx, same file', node_http: 'Node.js `http` alone, same request and response' }[name]} | ${fmt(r[`gate.${name}_rps`])} | ${fmt(r[`gate.${name}_p50_ms`], ' ms')} | ${fmt(r[`gate.${name}_p99_ms`], ' ms')} |`,
    ),
    '',
    '| gate CPU per private page request | request thread | whole process (database thread, garbage collector) |',
    '|---|---|---|',
    `| page views recorded (\`gate.private_request_thread_us\`, \`gate.private_process_us\`) | ${fmt(r['gate.private_request_thread_us'], ' µs')} | ${fmt(r['gate.private_process_us'], ' µs')} |`,
    `| not recorded (\`gate.private_unrecorded_request_thread_us\`, \`gate.private_unrecorded_process_us\`) | ${fmt(r['gate.private_unrecorded_request_thread_us'], ' µs')} | ${fmt(r['gate.private_unrecorded_process_us'], ' µs')} |`,
    `| Node.js \`http\` alone, same request and response (\`gate.node_http_process_us\`; its share of the gate's, \`gate.node_http_vs_private_cpu\`: ${fmt(r['gate.node_http_vs_private_cpu'])}) | | ${fmt(r['gate.node_http_process_us'], ' µs')} |`,
  ].join('\n');
}

function lighthouseRows(r) {
  const categories = ['performance', 'accessibility', 'best_practices', 'seo'];
  const lines = [
    '| page | form factor | performance | accessibility | best practices | SEO | CLS | LCP |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const page of ['home', 'doc', 'blog', 'login', 'not_found', 'refusal', 'doc_ungated']) {
    for (const form of ['desktop', 'mobile']) {
      const peer = page === 'doc_ungated';
      const cells = categories.map((category) => {
        const value = r[`lighthouse.${page}.${form}.${category}`];
        if (value === undefined) return 'not measured';
        return value >= LIGHTHOUSE_GOALS[category][form] || peer ? String(value) : `**${value}**`;
      });
      const cls = r[`lighthouse.${page}.${form}.cls`];
      cells.push(cls === undefined ? 'not measured' : cls <= LIGHTHOUSE_GOALS.cls || peer ? String(cls) : `**${cls}**`);
      const path = r['lighthouse.pages']?.[page];
      const name =
        {
          doc_ungated: 'doc, ungated peer build',
          login: 'login, signed out',
          not_found: '404, a deep unknown path',
          refusal: 'refusal page (403), a partner',
        }[page] ?? page;
      lines.push(
        `| ${name}${path ? ` (\`${path}\`)` : ''} | ${form} | ${cells.join(' | ')} | ${fmt(r[`lighthouse.${page}.${form}.lcp_ms`], ' ms')} |`,
      );
    }
  }
  return lines.join('\n');
}

function searchRows(r) {
  const kib = (bytes) => (bytes === undefined ? 'not measured' : `${(bytes / 1024).toFixed(1)} KiB`);
  return [
    '| search figure | value | goal |',
    '|---|---|---|',
    `| query p50 (\`search.query_p50_ms\`) | ${fmt(r['search.query_p50_ms'], ' ms')} | – |`,
    `| reader, and search bundles merged (\`search.reader\`, \`search.bundles_merged\`) | ${r['search.reader'] ?? 'not measured'}, ${fmt(r['search.bundles_merged'])} | – |`,
    `| query p95 (\`search.query_p95_ms\`) | ${fmt(r['search.query_p95_ms'], ' ms')} | ≤ 20 ms ${verdict(r['search.query_p95_ms'], (x) => x <= 20) === 'yes' ? '(met)' : '(**not met**)'} |`,
    `| first query of a page load, engine included (\`search.first_query_cold_ms\`) | ${fmt(r['search.first_query_cold_ms'], ' ms')} | – |`,
    `| index a reader downloaded over all the queries (\`search.downloaded_bytes\`) | ${kib(r['search.downloaded_bytes'])} | – |`,
    `| the reader's bundles together, compressed (\`search.index_compressed_bytes\`) | ${kib(r['search.index_compressed_bytes'])} in ${fmt(r['search.index_files'])} files | – |`,
    `| whole public index, compressed (\`search.public_index_compressed_bytes\`) | ${kib(r['search.public_index_compressed_bytes'])} | – |`,
    `| reader, and search bundles merged (\`search.licensed.reader\`, \`search.licensed.bundles_merged\`) | ${r['search.licensed.reader'] ?? 'not measured'}, ${fmt(r['search.licensed.bundles_merged'])} | – |`,
    `| their query p95 (\`search.licensed.query_p95_ms\`) | ${fmt(r['search.licensed.query_p95_ms'], ' ms')} | ≤ 30 ms ${verdict(r['search.licensed.query_p95_ms'], (x) => x <= 30) === 'yes' ? '(met)' : '(**not met**)'} |`,
    `| their first query of a page load, engine included (\`search.licensed.first_query_cold_ms\`) | ${fmt(r['search.licensed.first_query_cold_ms'], ' ms')} | ≤ 1 s ${verdict(r['search.licensed.first_query_cold_ms'], (x) => x <= 1000) === 'yes' ? '(met)' : '(**not met**)'} |`,
    `| their search box's first query as the dialog opens, slowest of the browsers (\`search.licensed.dialog_first_query_at_once_max_ms\`) | ${fmt(r['search.licensed.dialog_first_query_at_once_max_ms'], ' ms')} | ≤ 1 s ${verdict(r['search.licensed.dialog_first_query_at_once_max_ms'], (x) => x <= 1000) === 'yes' ? '(met)' : '(**not met**)'} |`,
  ].join('\n');
}

function operationsRows(r) {
  const mib = (value) => (value === undefined ? 'not measured' : `${value} MiB`);
  const store = (kind) =>
    `| ${kind === 'pglite' ? 'PGlite (embedded, in a data folder)' : 'PostgreSQL 15 (Debian)'} | ${fmt(r[`storage.${kind}.page_views`])} | ${mib(r[`storage.${kind}.mib`])} (${fmt(r[`storage.${kind}.bytes_per_view`], ' bytes a view')}) | ${fmt(r[`storage.${kind}.insights_30d_ms`], ' ms')} | ${fmt(r[`storage.${kind}.insights_30d_partner_ms`], ' ms')} | ${fmt(r[`storage.${kind}.insights_180d_ms`], ' ms')} |`;
  return [
    '| admin figure | value | goal |',
    '|---|---|---|',
    `| readers in the emulator, and the organisations they are in (\`admin.readers\`, \`admin.organisations\`) | ${fmt(r['admin.readers'])}, ${fmt(r['admin.organisations'])} | – |`,
    `| first page load, filling the index (\`admin.list_cold_ms\`) | ${fmt(r['admin.list_cold_ms'], ' ms')} | – |`,
    `| a page of 50, p50 (\`admin.list_p50_ms\`) | ${fmt(r['admin.list_p50_ms'], ' ms')} | – |`,
    `| a page of 50 with the organisations beside it, p95 (\`admin.list_p95_ms\`) | ${fmt(r['admin.list_p95_ms'], ' ms')} | ≤ 100 ms ${verdict(r['admin.list_p95_ms'], (x) => x <= 100) === 'yes' ? '(met)' : '(**not met**)'} |`,
    `| CSV import preview, ${fmt(r['admin.import_rows'])} rows (\`admin.import_preview_ms\`) | ${fmt(r['admin.import_preview_ms'], ' ms')} | – |`,
    `| CSV import applied, ${fmt(r['admin.import_rows'])} rows (\`admin.import_apply_ms\`) | ${fmt(r['admin.import_apply_ms'], ' ms')} | ≤ 10 s ${verdict(r['admin.import_apply_ms'], (x) => x <= 10_000) === 'yes' ? '(met)' : '(**not met**)'} |`,
    '',
    '| store | page views | disk, page view blocks and indexes | insights, 30 days | same, partners only | insights, 180 days |',
    '|---|---|---|---|---|---|',
    store('pglite'),
    store('postgres'),
  ].join('\n');
}

function agentRows(r) {
  const pair = (key) => `${fmt(r[`${key}_p50_ms`], ' ms')} | ${fmt(r[`${key}_p95_ms`], ' ms')}`;
  return [
    "| agent surface, with a partner's token | p50 | p95 |",
    '|---|---|---|',
    `| MCP \`read_page\` (\`agents.mcp_read_page_p95_ms\`) | ${pair('agents.mcp_read_page')} |`,
    `| MCP \`search_docs\` (\`agents.mcp_search_docs_p95_ms\`) | ${pair('agents.mcp_search_docs')} |`,
    `| MCP \`get_symbol\` (\`agents.mcp_get_symbol_p95_ms\`, goal p95 ≤ 20 ms) | ${pair('agents.mcp_get_symbol')} |`,
    `| \`GET /api/search\` (\`agents.search_api_p95_ms\`) | ${pair('agents.search_api')} |`,
    '',
    `| MCP \`read_page\`, OAuth access token vs personal token, side by side, ${fmt(r['agents.mcp_read_page_oauth_calls_per_round'])} calls each a round | p95 | goal |`,
    '|---|---|---|',
    `| with an OAuth access token (\`agents.mcp_read_page_oauth_p95_ms\`), median of rounds | ${fmt(r['agents.mcp_read_page_oauth_p95_ms'], ' ms')} | |`,
    `| with a personal token (\`agents.mcp_read_page_personal_p95_ms\`), median of rounds | ${fmt(r['agents.mcp_read_page_personal_p95_ms'], ' ms')} | |`,
    `| OAuth ÷ personal (\`agents.mcp_read_page_oauth_vs_personal_p95\`), median of ${fmt(r['agents.mcp_read_page_oauth_rounds'])} rounds; per round ${(r['agents.mcp_read_page_oauth_vs_personal_spread'] ?? []).join(', ')} | ${fmt(r['agents.mcp_read_page_oauth_vs_personal_p95'])} | ≤ 1.2 |`,
    '',
    "| the same page's Markdown under wrk | requests/s | p50 |",
    '|---|---|---|',
    `| with the token (\`agents.token_rps\`) | ${fmt(r['agents.token_rps'])} | ${fmt(r['agents.token_p50_ms'], ' ms')} |`,
    `| with the session cookie (\`agents.session_rps\`) | ${fmt(r['agents.session_rps'])} | ${fmt(r['agents.session_p50_ms'], ' ms')} |`,
    `| token ÷ session (\`agents.token_vs_session_rps\`) | ${fmt(r['agents.token_vs_session_rps'])} | |`,
  ].join('\n');
}

/** The synced package sections (bench/sources.mjs): absolute figures beside the one ratio. */
function sourcesRows(r) {
  if (r['sources.versions'] === undefined) return 'Not measured in this run.';
  return [
    '| figure | value | goal |',
    '|---|---|---|',
    `| sync with nothing changed, median of 5 (\`sources.sync_nochange_ms\`) | ${fmt(r['sources.sync_nochange_ms'], ' ms')} | ≤ 5,000 ms |`,
    `| cold build with all ${fmt(r['sources.versions'])} synced versions, ${fmt(r['sources.build_all_pages'])} pages (\`sources.build_all_s\`) | ${fmt(r['sources.build_all_s'], ' s')} | |`,
    `| cold build with each synced package at its newest release, ${fmt(r['sources.build_newest_pages'])} pages (\`sources.build_newest_s\`) | ${fmt(r['sources.build_newest_s'], ' s')} | |`,
    `| the older releases' archive, built once before the timed builds and kept (\`sources.build_all_archive_s\`) | ${r['sources.build_all_archive_s'] === undefined ? 'kept from an earlier build' : fmt(r['sources.build_all_archive_s'], ' s')} | |`,
    `| all versions ÷ newest only (\`sources.all_vs_newest_build\`), median of ${fmt(r['sources.build_rounds'])} rounds; per round ${(r['sources.all_vs_newest_spread'] ?? []).join(', ')} | ${fmt(r['sources.all_vs_newest_build'])} | ≤ 1.25 |`,
    `| full build, cold, with the gate-files step (\`sources.full_build_s\`) | ${fmt(r['sources.full_build_s'], ' s')} | |`,
    `| rebuild after one package's release, with the build's caches (\`sources.release_rebuild_s\`); of it, an archive of the release it replaced (\`sources.release_archive_s\`): ${fmt(r['sources.release_archive_s'], ' s')}, after that release's own archive was made ahead, as the gate does once a release is served (\`sources.newest_archive_s\`): ${fmt(r['sources.newest_archive_s'], ' s')} | ${fmt(r['sources.release_rebuild_s'], ' s')} | |`,
    `| rebuild ÷ full build (\`sources.release_vs_full_build\`); per round ${(r['sources.release_vs_full_spread'] ?? []).join(', ')} | ${fmt(r['sources.release_vs_full_build'])} | ≤ 0.5 |`,
    `| full build with the API reference, ${fmt(r['reference.build_with_pages'])} pages, ÷ without it, ${fmt(r['reference.build_without_pages'])} pages (\`reference.with_vs_without_build\`: ${fmt(r['reference.build_with_s'], ' s')} and ${fmt(r['reference.build_without_s'], ' s')}); per round ${(r['reference.with_vs_without_spread'] ?? []).join(', ')} | ${fmt(r['reference.with_vs_without_build'])} | ≤ 1.2 |`,
  ].join('\n');
}

/** docs/performance.md's text with the results section replaced by `results`. */
export async function renderPerformance(text, results) {
  const m = results.meta;
  const section = [
    '<!-- results:start -->',
    '',
    `Measured ${m.measuredAt.slice(0, 16).replace('T', ' ')} UTC with \`${m.command}\` on ${m.machine}, in ${Math.round(m.seconds / 60)} minutes. Every ratio is the portal's median divided by the peer's median from the same run (the gate's: the median of each round's ratio). A goal is met only when every round the run kept meets it too; "within spread" marks a median that meets it while a round does not.`,
    '',
    '### Ratios against peers',
    '',
    ratioRows(results),
    '',
    '### Build growth',
    '',
    growthRows(results),
    '',
    '### Package sources',
    '',
    sourcesRows(results),
    '',
    '### Gate latency under load',
    '',
    `wrk, 1 thread, ${fmt(results['gate.connections'])} connections, ${fmt(results['gate.rounds'])} rounds of ${fmt(results['gate.seconds_per_run'])} s per target; the page is ${fmt(results['gate.page_bytes'])} bytes of HTML, sent as ${results['gate.encoding'] ?? 'gzip'}${results['gate.sent_bytes'] ? ` (${results['gate.sent_bytes']} bytes)` : ''}.`,
    '',
    latencyRows(results),
    '',
    '### Lighthouse',
    '',
    `Median of ${fmt(results['lighthouse.runs'])} runs per page and form factor, signed in except the login page (the refusal page as a partner it refuses); CLS is the largest of the runs. Goals: performance ${LIGHTHOUSE_GOALS.performance.desktop} desktop and ≥ ${LIGHTHOUSE_GOALS.performance.mobile} mobile, the other categories 100, CLS ${LIGHTHOUSE_GOALS.cls} (a bold figure misses its goal).`,
    '',
    lighthouseRows(results),
    '',
    '### Search',
    '',
    searchRows(results),
    '',
    '### Administration and stored activity',
    '',
    operationsRows(results),
    '',
    '### Coding assistants',
    '',
    `${fmt(results['agents.calls_per_tool'])} calls per tool, through the MCP SDK's own client over Streamable HTTP; the Markdown comparison reads \`${results['agents.markdown_path'] ?? 'a page'}\` (${fmt(results['agents.markdown_bytes'])} bytes) with wrk, interleaved rounds as for the gate, page views off on that gate so both reads differ only in the check.`,
    '',
    agentRows(results),
    '',
    '<!-- results:end -->',
  ].join('\n');
  const marker = /<!-- results:start -->[\s\S]*<!-- results:end -->/;
  if (!marker.test(text)) throw new Error('docs/performance.md has lost its <!-- results:start/end --> markers');
  const updated = text.replace(marker, section);
  const filepath = join(root, 'docs/performance.md');
  return prettier.format(updated, { ...(await prettier.resolveConfig(filepath)), filepath });
}

// `node bench/report.mjs`: rewrites the tables from bench/results/latest.json without
// measuring again (after an edit to this file or to docs/performance.md's prose).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const performance = join(root, 'docs/performance.md');
  const results = JSON.parse(readFileSync(join(root, 'bench', 'results', 'latest.json'), 'utf8'));
  writeFileSync(performance, await renderPerformance(readFileSync(performance, 'utf8'), results));
  console.log(`docs/performance.md rewritten from the run of ${results.meta.measuredAt}`);
}
