/**
 * The administration API of an organisation's own sign-in and SCIM provisioning
 * (`/api/admin/organisations/{id}/…`, server/src/routes/admin/provisioning.ts) as the
 * organisations page calls it. Every failure becomes an AdminApiError with the server's reason.
 */
import { jsonRequest } from '@site/src/api/json-api';
import type { OrganisationSignInBody, ProvisioningOverview } from '@portal/contract';

import { failureMessage } from './api';

export type { ProvisioningOverview } from '@portal/contract';

/** An organisation's identity provider, the name the sign-in page shows, and whether its readers must use it. */
export type OrganisationSignIn = OrganisationSignInBody;
/** A bearer token of its SCIM client: never its secret, only its last four characters. */
export type ScimTokenInfo = ProvisioningOverview['tokens'][number];
/** One call of its SCIM client, with its outcome. */
export type ScimCall = ProvisioningOverview['calls'][number];
/** A token just made (`ScimTokenAnswer`): its secret, shown this once. */
export interface NewScimToken {
  id: string;
  name: string;
  token: string;
}

const request = <T>(method: string, path: string, body?: unknown): Promise<T> =>
  jsonRequest<T>(method, `/api/admin${path}`, body, failureMessage);

const of = (organisation: string): string => `/organisations/${encodeURIComponent(organisation)}`;

export const provisioningApi = {
  /** Its sign-in, the SCIM endpoint, its tokens, offered groups, provisioned readers and last calls. */
  overview: (organisation: string) => request<ProvisioningOverview>('GET', `${of(organisation)}/provisioning`),
  setSignIn: (organisation: string, body: OrganisationSignIn) =>
    request<undefined>('PUT', `${of(organisation)}/sign-in`, body),
  /** Back to passwords and the portal's other ways. */
  removeSignIn: (organisation: string) => request<undefined>('DELETE', `${of(organisation)}/sign-in`),
  mintToken: (organisation: string, name: string) =>
    request<NewScimToken>('POST', `${of(organisation)}/scim-tokens`, { name }),
  revokeToken: (organisation: string, token: string) =>
    request<undefined>('DELETE', `${of(organisation)}/scim-tokens/${encodeURIComponent(token)}`),
  /** The administrators' groups its SCIM client may put its readers in. */
  setGroups: (organisation: string, groups: string[]) =>
    request<undefined>('PUT', `${of(organisation)}/scim-groups`, { groups }),
};
