// Renders bench/results/latest.json as the tables in docs/performance.md (between the
// `results:start` and `results:end` markers), formatted by Prettier like the rest. Each
// ratio stands with its bootstrap 95 % interval and its goal's verdict (bench/stats.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as prettier from 'prettier';

import { LIGHTHOUSE_GOALS, root } from './lib.mjs';
import { verdict as intervalVerdict } from './stats.mjs';

const fmt = (value, unit = '') => (value === null || value === undefined ? 'not measured' : `${value}${unit}`);

/** A speed-up stays only while the whole interval of its gain is at or above this. */
export const KEEP_GAIN = 1.15;

/**
 * Every ratio with a goal, as the report writes it. A speed-up's figure is the portal with
 * it over the portal without it, as a gain (above 1 is better), against KEEP_GAIN.
 */
export const GOALS = {
  'build.faster_vs_webpack_wall': '≤ 0.40',
  'build.growth_2000_vs_500': '≥ 0.90',
  'sources.all_vs_newest_build': '≤ 1.25',
  'sources.release_vs_full_build': '≤ 0.5',
  'reference.with_vs_without_build': '≤ 1.2',
  'gate.private_vs_public_rps': '≥ 0.80',
  'gate.private_vs_nginx_rps': '≥ 0.50',
  'gate.recorded_vs_unrecorded_rps': '≥ 0.95',
  'gate.private_vs_node_http_rps': '≥ 0.80',
  'client.doc_page_js_vs_ungated': '≤ 1.05',
  'client.lcp_vs_ungated': '≤ 1.1',
  'client.lcp_vs_client_guard': '< 0.5',
  'agents.mcp_read_page_oauth_vs_personal_p95': '≤ 1.2',
  'gate.fast_path_on_vs_off_rps': `≥ ${KEEP_GAIN}`,
  // Not a ratio: seconds from a package's release to every gate serving it (part `releases`).
  'sources.release_to_live_p95_s': '≤ 60',
  // Not ratios: "what's new" for a reader of 25 packages with 10,000 page views (part `whatsnew`).
  'whatsnew.pglite.p95_ms': '≤ 50',
  'whatsnew.postgres.p95_ms': '≤ 50',
};

/** The start-up replacements of site/src/plugins the bench can build the site without (bench/startup.mjs). */
export const STARTUP_GAINS = {
  'startup.prism_off_startup.home_js_gain': 'page JavaScript of the home page (brotli bytes), without ÷ with',
  'startup.prism_off_startup.doc_mobile_tbt_gain': "doc page's Lighthouse mobile total blocking time, without ÷ with",
};
for (const key of Object.keys(STARTUP_GAINS)) GOALS[key] = `≥ ${KEEP_GAIN}`;

/** An absolute figure's goal, one value of one run with no interval: met or not met. */
function absoluteGoal(value, test) {
  if (value === null || value === undefined) return '(not measured)';
  return test(value) ? '(met)' : '(**not met**)';
}

function parseGoal(text) {
  const [op, value] = text.split(' ');
  return { op, value: Number(value) };
}

/**
 * `<key>.verdict` for every ratio with a goal that the run measured: met, missed or within
 * noise by its interval, or that it has none (a single round, or a run from before intervals).
 */
export function addVerdicts(results) {
  for (const [key, goal] of Object.entries(GOALS)) {
    if (results[key] === undefined || results[key] === null) continue;
    const low = results[`${key}.ci_low`];
    const high = results[`${key}.ci_high`];
    const rounds = results[`${key}_spread`]?.length ?? 0;
    results[`${key}.verdict`] =
      low !== undefined && high !== undefined
        ? intervalVerdict({ low, high }, parseGoal(goal))
        : rounds === 1
          ? 'one round: no interval'
          : 'no interval';
  }
  return results;
}

/** The ratio (or a figure in `unit`), its interval and how many rounds it came from. */
function ratioCell(r, key, unit = '') {
  if (r[key] === undefined || r[key] === null) return 'not measured';
  const rounds = r[`${key}_spread`]?.length;
  const interval = r[`${key}.ci_low`] === undefined ? '' : ` (${r[`${key}.ci_low`]} to ${r[`${key}.ci_high`]}${unit})`;
  return `${r[key]}${unit}${interval}${rounds ? `, ${rounds} round${rounds === 1 ? '' : 's'}` : ''}`;
}

function verdictCell(r, key) {
  if (!GOALS[key]) return '–';
  if (r[key] === undefined || r[key] === null) return 'not measured';
  const found = r[`${key}.verdict`] ?? addVerdicts({ ...r })[`${key}.verdict`];
  return found === 'met' ? 'met' : `**${found}**`;
}

function ratioRows(r) {
  // [figure, key, portal, peer]
  const rows = [
    [
      'Build wall time, Faster vs webpack',
      'build.faster_vs_webpack_wall',
      fmt(r['build.faster_wall_s'], ' s'),
      fmt(r['build.webpack_wall_s'], ' s'),
    ],
    [
      'Build peak memory, Faster vs webpack',
      'build.faster_vs_webpack_peak_rss',
      fmt(r['build.faster_peak_rss_mib'], ' MiB'),
      fmt(r['build.webpack_peak_rss_mib'], ' MiB'),
    ],
    [
      'Build pages/s with 2,000 generated pages vs with 500 (part `growth`)',
      'build.growth_2000_vs_500',
      fmt(r['build.pages_per_s_2000']),
      fmt(r['build.pages_per_s_500']),
    ],
    [
      `Cold build with all ${fmt(r['sources.versions'])} synced versions vs the newest only (part \`sources\`)`,
      'sources.all_vs_newest_build',
      fmt(r['sources.build_all_s'], ' s'),
      fmt(r['sources.build_newest_s'], ' s'),
    ],
    [
      "Rebuild after one package's release vs a full cold build (part `sources`)",
      'sources.release_vs_full_build',
      fmt(r['sources.release_rebuild_s'], ' s'),
      fmt(r['sources.full_build_s'], ' s'),
    ],
    [
      'Full build with the API reference vs without it (part `reference`)',
      'reference.with_vs_without_build',
      fmt(r['reference.build_with_s'], ' s'),
      fmt(r['reference.build_without_s'], ' s'),
    ],
    [
      "Gate requests/s, private page with a partner's session vs public page of the same bytes",
      'gate.private_vs_public_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.public_rps'], '/s'),
    ],
    [
      "Gate requests/s, private page with a partner's session vs nginx serving the file",
      'gate.private_vs_nginx_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.nginx_rps'], '/s'),
    ],
    [
      'Gate requests/s, private page with page views recorded vs not recorded',
      'gate.recorded_vs_unrecorded_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.private_unrecorded_rps'], '/s'),
    ],
    [
      "Gate requests/s, private page with a partner's session (page views recorded) vs Node.js `http` alone, same request and bytes",
      'gate.private_vs_node_http_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.node_http_rps'], '/s'),
    ],
    [
      'Gate requests/s, private page, page views not recorded, vs Node.js `http` alone',
      'gate.private_unrecorded_vs_node_http_rps',
      fmt(r['gate.private_unrecorded_rps'], '/s'),
      fmt(r['gate.node_http_rps'], '/s'),
    ],
    [
      'Requests/s, the gate’s public page vs Node.js `http` alone: what Fastify and the gate add',
      'gate.public_vs_node_http_rps',
      fmt(r['gate.public_rps'], '/s'),
      fmt(r['gate.node_http_rps'], '/s'),
    ],
    [
      'Requests/s, Node.js `http` alone (same response) vs nginx: the floor under any Node.js gate',
      'gate.node_http_vs_nginx_rps',
      fmt(r['gate.node_http_rps'], '/s'),
      fmt(r['gate.nginx_rps'], '/s'),
    ],
    [
      'CPU per request (whole process), Node.js `http` alone vs the gate’s private page',
      'gate.node_http_vs_private_cpu',
      fmt(r['gate.node_http_process_us'], ' µs'),
      fmt(r['gate.private_process_us'], ' µs'),
    ],
    [
      'Doc page first-load JS (brotli bytes) vs ungated build',
      'client.doc_page_js_vs_ungated',
      fmt(r['client.doc_page_js_kib'], ' KiB'),
      fmt(r['client.doc_page_js_kib_ungated'], ' KiB'),
    ],
    [
      'Doc page first-load JS (brotli bytes) vs client-guard build',
      'client.doc_page_js_vs_client_guard',
      fmt(r['client.doc_page_js_kib'], ' KiB'),
      fmt(r['client.doc_page_js_kib_client_guard'], ' KiB'),
    ],
    [
      'Doc page LCP, signed in, vs ungated build',
      'client.lcp_vs_ungated',
      fmt(r['client.lcp_ms'], ' ms'),
      fmt(r['client.lcp_ms_ungated'], ' ms'),
    ],
    [
      'Doc page LCP, signed in, vs client-guard build',
      'client.lcp_vs_client_guard',
      fmt(r['client.lcp_ms'], ' ms'),
      fmt(r['client.lcp_ms_client_guard'], ' ms'),
    ],
    ...['desktop', 'mobile'].map((form) => [
      `Lighthouse performance of the doc page, ${form}, vs the ungated build`,
      `lighthouse.doc.${form}.performance_vs_ungated`,
      fmt(r[`lighthouse.doc.${form}.performance`]),
      fmt(r[`lighthouse.doc_ungated.${form}.performance`]),
    ]),
    [
      'MCP `read_page` p95, OAuth access token vs personal token (median of the rounds’ ratios)',
      'agents.mcp_read_page_oauth_vs_personal_p95',
      fmt(r['agents.mcp_read_page_oauth_p95_ms'], ' ms'),
      fmt(r['agents.mcp_read_page_personal_p95_ms'], ' ms'),
    ],
    [
      "The same page's Markdown under wrk, requests/s with a token vs with the session cookie",
      'agents.token_vs_session_rps',
      fmt(r['agents.token_rps'], '/s'),
      fmt(r['agents.session_rps'], '/s'),
    ],
  ];
  return [
    '| figure | key | portal | peer | ratio (95 % interval), rounds | goal | verdict |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      ([figure, key, portal, peer]) =>
        `| ${figure} | \`${key}\` | ${portal} | ${peer} | ${ratioCell(r, key)} | ${GOALS[key] ?? '(reported)'} | ${verdictCell(r, key)} |`,
    ),
  ].join('\n');
}

/** Each speed-up against the same portal without it, kept only while it pays KEEP_GAIN. */
function speedUpRows(r) {
  const rows = [
    [
      "the gate's fast path (`server/src/fast-path.ts`)",
      'requests/s of the private page, with ÷ without (`GATE_FAST_PATH=off`)',
      'gate.fast_path_on_vs_off_rps',
      fmt(r['gate.private_rps'], '/s'),
      fmt(r['gate.private_no_fast_path_rps'], '/s'),
    ],
    ...Object.entries(STARTUP_GAINS).map(([key, figure]) => {
      const name = key.split('.')[1];
      return [
        `\`site/src/plugins/${name.replaceAll('_', '-')}.ts\` (part \`startup\`)`,
        figure,
        key,
        fmt(r[`${key}_with`]),
        fmt(r[`${key}_without`]),
      ];
    }),
  ];
  return [
    '| speed-up | figure | key | with | without | gain (95 % interval), rounds | kept if | verdict |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ([what, figure, key, withIt, without]) =>
        `| ${what} | ${figure} | \`${key}\` | ${withIt} | ${without} | ${ratioCell(r, key)} | ${GOALS[key]} | ${verdictCell(r, key)} |`,
    ),
  ].join('\n');
}

function buildRows(r) {
  const row = (n) =>
    `| portal + ${n.toLocaleString('en')} generated docs | ${fmt(r[`build.pages_${n}`])} | ${fmt(r[`build.wall_s_${n}`], ' s')} | ${fmt(r[`build.bundle_s_${n}`], ' s')} | ${fmt(r[`build.ssg_s_${n}`], ' s')} | ${fmt(r[`build.pages_per_s_${n}`])} | ${fmt(r[`build.peak_rss_mib_${n}`], ' MiB')} |`;
  return [
    '| build | pages | wall time | bundling | static rendering | pages/s | peak memory |',
    '|---|---|---|---|---|---|---|',
    `| portal, Faster (\`build.faster_wall_s\`) | ${fmt(r['build.portal_pages'])} | ${fmt(r['build.faster_wall_s'], ' s')} | | | | ${fmt(r['build.faster_peak_rss_mib'], ' MiB')} |`,
    row(500),
    row(2000),
    '',
    '| figure | value | goal |',
    '|---|---|---|',
    `| pages/s with 2,000 generated docs (\`build.pages_per_s_2000\`, part \`growth\`) | ${fmt(r['build.pages_per_s_2000'])} | ≥ 40 (${r['build.pages_per_s_2000'] === undefined ? 'not measured' : r['build.pages_per_s_2000'] >= 40 ? 'met' : '**not met**'}) |`,
    `| sync with nothing changed, median of 5 (\`sources.sync_nochange_ms\`, part \`sources\`) | ${fmt(r['sources.sync_nochange_ms'], ' ms')} | ≤ 5,000 ms |`,
    `| package release to served by all three gates, median (\`sources.release_to_live_s\`, part \`releases\`) | ${ratioCell(r, 'sources.release_to_live_s', ' s')} | – |`,
    `| the same, p95 (\`sources.release_to_live_p95_s\`) | ${ratioCell(r, 'sources.release_to_live_p95_s', ' s')} | ≤ 60 s (${verdictCell(r, 'sources.release_to_live_p95_s')}) |`,
    `| the first release, into an empty store (\`sources.first_release_to_live_s\`) | ${fmt(r['sources.first_release_to_live_s'], ' s')} | – |`,
    `| rebuild after a release: the archive of the release it replaced (\`sources.release_archive_s\`), and the newest's archive made ahead (\`sources.newest_archive_s\`) | ${fmt(r['sources.release_archive_s'], ' s')}, ${fmt(r['sources.newest_archive_s'], ' s')} | – |`,
  ].join('\n');
}

function latencyRows(r) {
  const names = {
    private: `gate, private page, ${r['gate.private_reader'] ?? 'a partner'}'s session`,
    private_no_fast_path: 'the same, without the fast path',
    public: 'gate, public page, same bytes',
    nginx: 'nginx, same file',
    node_http: 'Node.js `http` alone, same request and response',
  };
  return [
    '| gate load | requests/s | p50 | p99 |',
    '|---|---|---|---|',
    ...Object.entries(names).map(
      ([name, label]) =>
        `| ${label} | ${fmt(r[`gate.${name}_rps`])} | ${fmt(r[`gate.${name}_p50_ms`], ' ms')} | ${fmt(r[`gate.${name}_p99_ms`], ' ms')} |`,
    ),
    '',
    '| gate CPU per private page request | request thread | whole process |',
    '|---|---|---|',
    ...[
      ['page views recorded', 'private'],
      ['not recorded', 'private_unrecorded'],
      ['without the fast path', 'private_no_fast_path'],
    ].map(
      ([label, name]) =>
        `| ${label} (\`gate.${name}_request_thread_us\`) | ${fmt(r[`gate.${name}_request_thread_us`], ' µs')} | ${fmt(r[`gate.${name}_process_us`], ' µs')} |`,
    ),
    `| Node.js \`http\` alone (\`gate.node_http_process_us\`) | | ${fmt(r['gate.node_http_process_us'], ' µs')} |`,
  ].join('\n');
}

function lighthouseRows(r) {
  const categories = ['performance', 'accessibility', 'best_practices', 'seo'];
  const lines = [
    '| page | form factor | performance | accessibility | best practices | SEO | CLS | LCP | TBT |',
    '|---|---|---|---|---|---|---|---|---|',
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
        `| ${name}${path ? ` (\`${path}\`)` : ''} | ${form} | ${cells.join(' | ')} | ${fmt(r[`lighthouse.${page}.${form}.lcp_ms`], ' ms')} | ${fmt(r[`lighthouse.${page}.${form}.tbt_ms`], ' ms')} |`,
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
    `| query p95 (\`search.query_p95_ms\`) | ${fmt(r['search.query_p95_ms'], ' ms')} | ≤ 20 ms ${absoluteGoal(r['search.query_p95_ms'], (x) => x <= 20)} |`,
    `| first query of a page load, engine included (\`search.first_query_cold_ms\`) | ${fmt(r['search.first_query_cold_ms'], ' ms')} | – |`,
    `| index a reader downloaded over all the queries (\`search.downloaded_bytes\`) | ${kib(r['search.downloaded_bytes'])} | – |`,
    `| the reader's bundles together, compressed (\`search.index_compressed_bytes\`) | ${kib(r['search.index_compressed_bytes'])} in ${fmt(r['search.index_files'])} files | – |`,
    `| whole public index, compressed (\`search.public_index_compressed_bytes\`) | ${kib(r['search.public_index_compressed_bytes'])} | – |`,
    `| reader, and search bundles merged (\`search.licensed.reader\`, \`search.licensed.bundles_merged\`) | ${r['search.licensed.reader'] ?? 'not measured'}, ${fmt(r['search.licensed.bundles_merged'])} | – |`,
    `| their query p95 (\`search.licensed.query_p95_ms\`) | ${fmt(r['search.licensed.query_p95_ms'], ' ms')} | ≤ 30 ms ${absoluteGoal(r['search.licensed.query_p95_ms'], (x) => x <= 30)} |`,
    `| their first query of a page load, engine included (\`search.licensed.first_query_cold_ms\`) | ${fmt(r['search.licensed.first_query_cold_ms'], ' ms')} | ≤ 1 s ${absoluteGoal(r['search.licensed.first_query_cold_ms'], (x) => x <= 1000)} |`,
    `| their search box's first query as the dialog opens, slowest of the browsers (\`search.licensed.dialog_first_query_at_once_max_ms\`) | ${fmt(r['search.licensed.dialog_first_query_at_once_max_ms'], ' ms')} | ≤ 1 s ${absoluteGoal(r['search.licensed.dialog_first_query_at_once_max_ms'], (x) => x <= 1000)} |`,
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
    `| a page of 50 with the organisations beside it, p95 (\`admin.list_p95_ms\`) | ${fmt(r['admin.list_p95_ms'], ' ms')} | ≤ 100 ms ${absoluteGoal(r['admin.list_p95_ms'], (x) => x <= 100)} |`,
    `| CSV import preview, ${fmt(r['admin.import_rows'])} rows (\`admin.import_preview_ms\`) | ${fmt(r['admin.import_preview_ms'], ' ms')} | – |`,
    `| CSV import applied, ${fmt(r['admin.import_rows'])} rows (\`admin.import_apply_ms\`) | ${fmt(r['admin.import_apply_ms'], ' ms')} | ≤ 10 s ${absoluteGoal(r['admin.import_apply_ms'], (x) => x <= 10_000)} |`,
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
  ].join('\n');
}

/** "build 212 s, client 95 s, …": how long each part of this run took. */
function partTimes(meta) {
  const parts = Object.entries(meta.parts ?? {});
  return parts.length === 0 ? 'not recorded' : parts.map(([name, seconds]) => `${name} ${seconds} s`).join(', ');
}

/** docs/performance.md's text with the results section replaced by `results`. */
export async function renderPerformance(text, results) {
  const m = results.meta;
  const section = [
    '<!-- results:start -->',
    '',
    `Measured ${m.measuredAt.slice(0, 16).replace('T', ' ')} UTC with \`${m.command}\` on ${m.machine}, in ${Math.round(m.seconds / 60)} minutes (${partTimes(m)}). Each ratio is followed by its bootstrap 95 % interval and the number of rounds it came from. A goal is met when the whole interval is on its side, missed when the whole interval is on the other side, and within noise otherwise.`,
    '',
    '### Ratios against peers',
    '',
    ratioRows(results),
    '',
    '### Speed-ups against the portal without them',
    '',
    speedUpRows(results),
    '',
    '### Builds',
    '',
    buildRows(results),
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
    `${fmt(results['agents.calls_per_tool'])} calls per tool, through the MCP SDK's own client over Streamable HTTP.`,
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
