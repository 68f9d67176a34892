/**
 * The administration API (`/api/admin/…`, server/src/routes/admin/) as the admin pages
 * call it. Every failure becomes an AdminApiError with the server's reason, to show.
 */
import { jsonRequest, serverReason } from '@site/src/api/json-api';
import type {
  AccessOverview,
  AdminTokenList,
  AuditPage,
  InsightsAnswer,
  InsightsPages,
  InvitationAnswer,
  ReaderChange,
  ReaderPage,
  SiteReleaseInfo,
  SiteReleasesOverview,
  SourcesOverview,
} from '@portal/contract';

export type {
  AccessOverview,
  AdminToken,
  AuditPage,
  AuditRow as AuditEvent,
  GroupInfo,
  Insights,
  InsightsAnswer,
  InsightsPages,
  Invitation,
  ReaderAccount,
  ReaderPage,
  RebuildJob,
  SiteReleaseInfo,
  SiteReleasesOverview,
  SourcesOverview,
} from '@portal/contract';

/** A failed call of the admin pages (the site's one API error). */
export { ApiError as AdminApiError } from '@site/src/api/json-api';

/** The words for a failed call: the server's reason, or what the status means. */
export function failureMessage(status: number, body: unknown): string {
  const reason = serverReason(body);
  if (reason) return reason;
  if (status === 401) return 'Your session has ended. Sign in again.';
  if (status === 403) return 'This needs an administrator account.';
  if (status === 429) return 'Too many changes in a minute. Wait a moment, then try again.';
  if (status >= 500) return 'The portal could not do that right now. Nothing was changed; try again shortly.';
  return `The portal answered ${status}.`;
}

const request = <T>(method: string, path: string, body?: unknown): Promise<T> =>
  jsonRequest<T>(method, `/api/admin${path}`, body, failureMessage);

/** A query string from the parameters that are set. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export const adminApi = {
  readers: (params: { q?: string; group?: string; status?: string; sort?: string; page?: number; limit?: number }) =>
    request<ReaderPage>('GET', `/readers${query(params)}`),
  invite: (email: string, groups: string[], method: 'password' | 'provider') =>
    request<InvitationAnswer>('POST', '/invitations', { email, groups, method }),
  withdraw: (email: string) => request<undefined>('DELETE', `/invitations/${encodeURIComponent(email)}`),
  /** Revokes a reader's own grant (an approved access request). */
  revokeGrant: (id: string) => request<undefined>('DELETE', `/grants/${encodeURIComponent(id)}`),
  setGroups: (uid: string, groups: string[]) =>
    request<ReaderChange>('PUT', `/readers/${encodeURIComponent(uid)}/groups`, {
      groups,
    }),
  setDisabled: (uid: string, disabled: boolean) =>
    request<ReaderChange>('POST', `/readers/${encodeURIComponent(uid)}/${disabled ? 'disable' : 'enable'}`),
  remove: (uid: string) => request<undefined>('DELETE', `/readers/${encodeURIComponent(uid)}`),
  audit: (params: { kind?: string; reader?: string; from?: string; to?: string; before?: string; limit?: number }) =>
    request<AuditPage>('GET', `/audit${query(params)}`),
  /** The address of an export with these filters (a download: the browser sends the session cookie). */
  exportUrl: (format: 'csv' | 'json', params: { kind?: string; reader?: string; from?: string; to?: string }) =>
    `/api/admin/audit${query({ ...params, format })}`,
  insights: (params: { group?: string; organisation?: string; days?: number }) =>
    request<InsightsAnswer>('GET', `/insights${query(params)}`),
  /** Every page's title and unit, to name pages in the insights. */
  insightsPages: () => request<InsightsPages>('GET', '/insights/pages'),
  tokens: (reader?: string) => request<AdminTokenList>('GET', `/tokens${query({ reader })}`),
  revokeToken: (id: string) => request<undefined>('DELETE', `/tokens/${encodeURIComponent(id)}`),
  sources: () => request<SourcesOverview>('GET', '/sources'),
  /** The site releases and what this replica serves of them (server/src/releases). */
  siteReleases: () => request<SiteReleasesOverview>('GET', '/site-releases'),
  /** Serves an earlier release again on every replica; audited. */
  serveSiteRelease: (id: number) => request<SiteReleaseInfo>('POST', `/site-releases/${id}/live`),
  /** The organisations, licences and groups made here, with who is placed in each (licences.ts). */
  access: () => request<AccessOverview>('GET', '/access'),
  /** Places a reader in an organisation (null: by their e-mail's domain) and in groups made here; audited. */
  setMembership: (email: string, organisation: string | null, groups: string[]) =>
    request<undefined>('PUT', `/memberships/${encodeURIComponent(email)}`, { organisation, groups }),
};
