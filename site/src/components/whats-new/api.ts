/**
 * "What's new for you" as the site calls it (server/src/routes/whats-new.ts and
 * routes/account/whats-new.ts): same origin, the session cookie, JSON.
 */
import { jsonRequest, serverReason } from '@site/src/api/json-api';

import type {
  CreatedFeedToken,
  FeedTokenList,
  NewsSettings,
  NewsSettingsSaved,
  WhatsNewAnswer as WhatsNew,
} from '@portal/contract';

export type {
  FeedTokenRecord as FeedToken,
  NewsSettings,
  PackageNews,
  PageNews,
  ReleaseNews,
  SymbolChange,
  WhatsNewAnswer as WhatsNew,
} from '@portal/contract';

function failureMessage(status: number, body: unknown): string {
  if (status === 401) return 'Your session has ended. Sign in again to see what is new for you.';
  const reason = serverReason(body);
  if (reason) return reason;
  if (status === 503) return 'The portal’s database is not ready; try again shortly.';
  if (status >= 500) return 'The portal could not do that right now. Nothing was changed; try again shortly.';
  return `The portal answered ${status}.`;
}

const call = <T>(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> =>
  jsonRequest<T>(method, path, body, failureMessage);

export const newsApi = {
  news: (since?: string) =>
    call<WhatsNew>('GET', `/api/whats-new${since ? `?since=${encodeURIComponent(since)}` : ''}`),
  settings: () => call<NewsSettings>('GET', '/api/whats-new/settings'),
  saveSettings: (settings: Partial<Pick<NewsSettings, 'digest' | 'personalOrder'>>) =>
    call<NewsSettingsSaved>('PUT', '/api/whats-new/settings', settings),
  watch: (kind: 'package' | 'page', target: string, watching: boolean) =>
    call<undefined>('PUT', '/api/whats-new/watches', { kind, target, watching }),
  feedTokens: () => call<FeedTokenList>('GET', '/api/feed-tokens'),
  makeFeedToken: (feed: string) => call<CreatedFeedToken>('POST', '/api/feed-tokens', { feed }),
  revokeFeedToken: (id: string) => call<undefined>('DELETE', `/api/feed-tokens/${encodeURIComponent(id)}`),
  clearReading: () => call<{ views: number }>('DELETE', '/api/whats-new/reading'),
};

/** How many things are new: packages with releases, changed and new pages. */
export const newsCount = (news: WhatsNew): number =>
  news.packages.length + news.changedPages.length + news.newPages.length;
