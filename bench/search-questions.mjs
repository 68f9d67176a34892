// What a TV-app developer types into the portal's search, each with the page it should
// find, for the relevance figures (mean reciprocal rank) of bench/search.mjs. Written from
// the pages' subjects, as queries are typed: a few words, an API name, a misspelling now
// and then. Two sets: `TUNING` may be looked at while the ranking is changed; `HELD_OUT`
// was written at the same time, before any change to the ranking, and must not be tuned
// on: it says whether a change helps queries nobody fitted it to.

const PLAYERS = '/docs/player-manager-mono/packages';
const GUIDES = '/docs/frontend-guidelines';
const UI = '/docs/ui-toolkit-mono/packages';
const NAV = '/docs/Norigin-Spatial-Navigation/';
const NAV_IN_DEPTH = '/docs/Spat-Nav/Detailed_README_SpatNav';

/** @type {readonly { query: string, page: string }[]} */
export const TUNING = [
  // Players
  { query: 'shaka adapter', page: `${PLAYERS}/player-adapter-shaka/` },
  { query: 'dash.js widevine', page: `${PLAYERS}/player-adapter-dash.js/` },
  { query: 'configure hls.js', page: `${PLAYERS}/player-adapter-hls.js/` },
  { query: 'bitmovin licence key', page: `${PLAYERS}/player-adapter-bitmovin/` },
  { query: 'exoplayer android tv', page: `${PLAYERS}/player-adapter-react-native/` },
  { query: 'avplay privileges config.xml', page: `${PLAYERS}/player-adapter-tizen/` },
  { query: 'webos protected load', page: `${PLAYERS}/player-adapter-webos/` },
  { query: 'createPlayerManager', page: `${PLAYERS}/player-manager/` },
  { query: 'preloading sources', page: `${PLAYERS}/player-manager/` },
  { query: 'PlayerProvider', page: `${PLAYERS}/player-framework/` },
  { query: 'PlaybackState', page: `${PLAYERS}/player-core/` },
  { query: 'writing an adapter', page: `${PLAYERS}/player-core/` },
  { query: 'vast mid-roll', page: `${PLAYERS}/player-scheduler-vast/` },
  { query: 'createVastScheduler', page: `${PLAYERS}/player-scheduler-vast/` },
  { query: 'createTrackingManager', page: `${PLAYERS}/tracking-manager/` },
  { query: 'conviva', page: `${PLAYERS}/tracking-adapter-conviva/` },
  { query: 'nielsen react native', page: `${PLAYERS}/tracking-adapter-nielsen-react-native/` },
  { query: 'youbora', page: `${PLAYERS}/tracking-adapter-youbora/` },
  { query: 'comscore', page: `${PLAYERS}/tracking-adapter-comscore/` },
  { query: 'kantar tracking', page: `${PLAYERS}/tracking-adapter-kantar/` },
  { query: 'google analytics adapter', page: `${PLAYERS}/tracking-adapter-google-analytics/` },
  { query: 'playground presets', page: '/docs/player-manager-mono/apps/playground-web/' },
  // Guidelines
  { query: 'tizen studio certificates', page: `${GUIDES}/TizenStudio` },
  { query: 'appinfo.json', page: `${GUIDES}/LGWebOS` },
  { query: 'jenkinsfile', page: `${GUIDES}/JenkinsPipeline` },
  { query: 'changesets', page: `${GUIDES}/ReleaseFlow` },
  { query: 'hotfix release', page: `${GUIDES}/ReleaseFlow` },
  { query: 'branch naming', page: `${GUIDES}/GitFlow` },
  { query: 'CODEOWNERS', page: `${GUIDES}/SourceCodeOwnership` },
  { query: 'sentry source maps', page: `${GUIDES}/Sentry` },
  { query: 'shaka fork patches', page: `${GUIDES}/ShakaFork` },
  { query: 'cypress remote keys', page: `${GUIDES}/Cypress` },
  // UI toolkit, layout, apps
  { query: 'theme tokens', page: `${UI}/theme/` },
  { query: 'useRemoteKeys', page: `${UI}/hooks/` },
  { query: 'formatDuration', page: `${UI}/utils/` },
  { query: 'storybook', page: '/docs/ui-toolkit-mono/' },
  { query: 'layout engine page schema', page: '/docs/layout-engine/' },
  { query: 'brand config', page: '/docs/whitelabel/' },
  { query: 'channel zapping', page: '/docs/france24-demo/' },
  { query: 'tv app training', page: '/docs/tv-app-training/' },
  // Navigation
  { query: 'how the next focusable is chosen', page: NAV_IN_DEPTH },
  { query: 'saveLastFocusedChild', page: NAV_IN_DEPTH },
  { query: 'spatial navigation', page: NAV },
  // Misspelt
  { query: 'shaak adapter', page: `${PLAYERS}/player-adapter-shaka/` },
  { query: 'conviav', page: `${PLAYERS}/tracking-adapter-conviva/` },
];

/** @type {readonly { query: string, page: string }[]} */
export const HELD_OUT = [
  { query: 'exoplayer modules', page: `${PLAYERS}/player-adapter-react-native/` },
  { query: 'one player at a time', page: `${PLAYERS}/player-adapter-tizen/` },
  { query: 'webos 22', page: `${PLAYERS}/player-adapter-webos/` },
  { query: 'allow-listed domains', page: `${PLAYERS}/player-adapter-bitmovin/` },
  { query: 'post-roll', page: `${PLAYERS}/player-scheduler-vast/` },
  { query: 'detectPlatform', page: `${PLAYERS}/player-core/` },
  { query: 'PlayerView', page: `${PLAYERS}/player-framework/` },
  { query: 'mux data tracking', page: `${PLAYERS}/tracking-adapter-mux/` },
  { query: 'why pin tizen studio', page: `${GUIDES}/TizenStudio` },
  { query: 'rebase shaka upstream', page: `${GUIDES}/ShakaFork` },
  { query: 'sentry release name', page: `${GUIDES}/Sentry` },
  { query: 'ares-install', page: `${GUIDES}/LGWebOS` },
  { query: 'checklist before opening a PR', page: `${GUIDES}/GitFlow` },
  { query: 'fetchPage cache', page: '/docs/layout-engine/' },
  { query: 'pxToRem', page: `${UI}/utils/` },
  { query: 'useLongPress', page: `${UI}/hooks/` },
  { query: 'SearchScreen', page: `${UI}/reference-implementations-react/` },
  { query: 'right-to-left arabic', page: '/docs/france24-demo/' },
  { query: 'knowledge nuggets', page: '/docs/knowledge-nugget-app/' },
  { query: 'focus keys and parents', page: NAV_IN_DEPTH },
  { query: 'focsuable tree', page: NAV_IN_DEPTH },
];
