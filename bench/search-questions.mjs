// What a TV-app developer types into the portal's search, each with the page it should
// find, for the relevance figures (mean reciprocal rank) of bench/search.mjs. Written from
// the pages' subjects, as queries are typed: a few words, an API name, a misspelling now
// and then. Two sets: `TUNING` may be looked at while the ranking is changed; `HELD_OUT`
// was written at the same time, before any change to the ranking, and must not be tuned
// on: it says whether a change helps queries nobody fitted it to.
//
// Identifiers (an option, a hook, a type) and plain-language questions were added to both
// sets on 2026-12-04, before the ranking was changed for them (issue 63): an identifier
// should find the page that documents it, whether it stands in a table, in code or in the
// reference, and a question in a reader's words the page that answers it.

const PLAYERS = '/docs/player-manager-mono/packages';
const GUIDES = '/docs/frontend-guidelines';
const UI = '/docs/ui-toolkit-mono/packages';
const NAV = '/docs/Norigin-Spatial-Navigation/';
const NAV_IN_DEPTH = '/docs/Spat-Nav/Detailed_README_SpatNav';
const NAV_API = '/docs/Norigin-Spatial-Navigation/api';
const NAV_GUIDE = '/docs/Norigin-Spatial-Navigation/GUIDE';

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
  // Identifiers: options in tables, names in code, symbols of the reference
  { query: 'licenseKey', page: `${PLAYERS}/player-adapter-bitmovin/` },
  { query: 'robustnessLevel', page: `${PLAYERS}/player-adapter-dash.js/` },
  { query: 'capLevelToPlayerSize', page: `${PLAYERS}/player-adapter-hls.js/` },
  { query: 'progressUpdateIntervalMs', page: `${PLAYERS}/player-adapter-react-native/` },
  { query: 'preferredKeySystem', page: `${PLAYERS}/player-adapter-shaka/` },
  { query: 'lunaTimeoutMs', page: `${PLAYERS}/player-adapter-webos/` },
  { query: 'destroyOnUnmount', page: `${PLAYERS}/player-framework/` },
  { query: 'maxWrapperDepth', page: `${PLAYERS}/player-scheduler-vast/` },
  { query: 'publisherId', page: `${PLAYERS}/tracking-adapter-comscore/` },
  { query: 'customerKey', page: `${PLAYERS}/tracking-adapter-conviva/` },
  { query: 'progressThresholds', page: `${PLAYERS}/tracking-adapter-google-analytics/` },
  { query: 'pollIntervalSec', page: `${PLAYERS}/tracking-adapter-kantar/` },
  { query: 'viewerUserId', page: `${PLAYERS}/tracking-adapter-mux/` },
  { query: 'businessUnit', page: `${PLAYERS}/tracking-adapter-redbee/` },
  { query: 'onConsentDenied', page: `${PLAYERS}/tracking-adapter-vast/` },
  { query: 'accountCode', page: `${PLAYERS}/tracking-adapter-youbora/` },
  { query: 'onAdapterError', page: `${PLAYERS}/tracking-manager/` },
  { query: 'renderHero', page: `${UI}/reference-implementations-react/` },
  { query: 'iconOnly', page: `${UI}/reusable-react/` },
  { query: 'surfaceRaised', page: `${UI}/theme/` },
  { query: 'NextFocusResolver', page: `${NAV_API}/NextFocusResolver` },
  { query: 'GetBoundingClientRectAdapter', page: `${NAV_API}/GetBoundingClientRectAdapter` },
  // Plain-language questions
  { query: 'which permissions does my tizen app need to play video', page: `${PLAYERS}/player-adapter-tizen/` },
  { query: 'how does a protected stream start on an lg tv', page: `${PLAYERS}/player-adapter-webos/` },
  { query: 'switch to the next episode without a black screen', page: `${PLAYERS}/player-manager/` },
  { query: 'what states can playback be in', page: `${PLAYERS}/player-core/` },
  { query: 'stop analytics until the viewer gives consent', page: `${PLAYERS}/tracking-manager/` },
  { query: 'show an ad before the movie starts', page: `${PLAYERS}/player-scheduler-vast/` },
  { query: 'should I use avplay or shaka on samsung', page: `${PLAYERS}/player-adapter-shaka/` },
  { query: 'turn on exoplayer for android tv', page: `${PLAYERS}/player-adapter-react-native/` },
  { query: 'detect a long press on the ok button', page: `${UI}/hooks/` },
  { query: 'format a duration as hours and minutes', page: `${UI}/utils/` },
  { query: 'read the colour tokens in my own component', page: `${UI}/theme/` },
  { query: 'add a new kind of row to the home page', page: '/docs/layout-engine/' },
  { query: 'set up a new brand for a customer', page: '/docs/whitelabel/' },
  { query: 'test remote control keys in cypress', page: `${GUIDES}/Cypress` },
  { query: 'upload source maps for a tv build', page: `${GUIDES}/Sentry` },
  { query: 'steps to cut a release', page: `${GUIDES}/ReleaseFlow` },
  { query: 'keep focus inside a row of tiles', page: NAV_GUIDE },
  { query: 'move focus to a component from code', page: NAV_GUIDE },
  { query: 'read focus changes aloud for screen readers', page: NAV_GUIDE },
  { query: 'when do I call updateAllLayouts', page: NAV_GUIDE },
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
  // Identifiers, written with the tuning set's and never tuned on
  { query: 'preferredTech', page: `${PLAYERS}/player-adapter-bitmovin/` },
  { query: 'liveSyncDurationCount', page: `${PLAYERS}/player-adapter-hls.js/` },
  { query: 'maxVideoHeight', page: `${PLAYERS}/player-adapter-react-native/` },
  { query: 'reuseVideoElement', page: `${PLAYERS}/player-adapter-webos/` },
  { query: 'mediaFilePreference', page: `${PLAYERS}/player-scheduler-vast/` },
  { query: 'gatewayUrl', page: `${PLAYERS}/tracking-adapter-conviva/` },
  { query: 'exposureBaseUrl', page: `${PLAYERS}/tracking-adapter-redbee/` },
  { query: 'pixelTimeoutMs', page: `${PLAYERS}/tracking-adapter-vast/` },
  { query: 'sdkUrl', page: `${PLAYERS}/tracking-adapter-nielsen/` },
  { query: 'UseFocusableConfig', page: `${NAV_API}/UseFocusableConfig` },
  // Plain-language questions, the same
  { query: 'which drm works on each webos version', page: `${PLAYERS}/player-adapter-webos/` },
  { query: 'write my own player adapter', page: `${PLAYERS}/player-core/` },
  { query: 'what happens to tracking events when the tv is offline', page: `${PLAYERS}/tracking-manager/` },
  { query: 'play ads on tizen 4', page: `${PLAYERS}/player-scheduler-vast/` },
  { query: 'handle the back key in a plain event listener', page: `${UI}/utils/` },
  { query: 'scroll a long list without rendering every row', page: '/docs/layout-engine/' },
  { query: 'keep secrets out of the brand config', page: '/docs/whitelabel/' },
  { query: 'why is the release name tied to the app', page: `${GUIDES}/Sentry` },
  { query: 'choose which tile a rail focuses first', page: NAV_GUIDE },
  { query: 'wrap focus around at the end of a carousel', page: NAV_GUIDE },
];
