/**
 * The administration API of organisations, licences, access groups and readers' memberships
 * (`/api/admin/…`, server/src/routes/licences.ts) as the organisations page calls it.
 */
import { ApiError, jsonRequest } from '@site/src/api/json-api';
import type {
  AccessGroupBody,
  AccessOverview,
  ImportReport,
  LicenceAnswer,
  LicenceBody,
  LicenceChange,
  OrganisationBody,
  OrganisationChange,
  UnitReaders,
} from '@portal/contract';

import { failureMessage } from './api';

export type {
  AccessGroupInfo,
  AccessOverview,
  ImportChange,
  ImportReport,
  LicenceInfo,
  OrganisationInfo,
  UnitInfo,
  UnitReaders,
} from '@portal/contract';

/** What each panel of the organisations page gets: the overview, and a way to read it again after a change. */
export interface AccessPanelProps {
  overview: AccessOverview;
  reload: () => Promise<void>;
}

const request = <T>(method: string, path: string, body?: unknown): Promise<T> =>
  jsonRequest<T>(method, `/api/admin${path}`, body, failureMessage);

/** Sends a CSV file to the import: a preview, or (`apply`) the change itself. A refused row answers 422 with its report. */
async function importCsv(csv: string, apply: boolean): Promise<ImportReport> {
  let response: Response;
  try {
    response = await fetch(`/api/admin/readers/import${apply ? '?apply=true' : ''}`, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'application/json', 'Content-Type': 'text/csv' },
      body: csv,
    });
  } catch {
    throw new ApiError('Could not reach the portal. Check your connection and try again.', 0);
  }
  const parsed: unknown = await response.json().catch(() => null);
  if (response.ok || response.status === 422) return parsed as ImportReport;
  throw new ApiError(failureMessage(response.status, parsed), response.status);
}

const path = (value: string): string => encodeURIComponent(value);

export const accessApi = {
  overview: () => request<AccessOverview>('GET', '/access'),
  createOrganisation: (body: OrganisationBody) => request<null>('POST', '/organisations', body),
  changeOrganisation: (id: string, change: OrganisationChange) =>
    request<undefined>('PATCH', `/organisations/${path(id)}`, change),
  removeOrganisation: (id: string) => request<undefined>('DELETE', `/organisations/${path(id)}`),
  grant: (organisation: string, body: LicenceBody) =>
    request<LicenceAnswer>('POST', `/organisations/${path(organisation)}/licences`, body),
  changeLicence: (id: string, change: LicenceChange) => request<undefined>('PATCH', `/licences/${path(id)}`, change),
  withdraw: (id: string) => request<undefined>('DELETE', `/licences/${path(id)}`),
  saveGroup: (name: string, body: AccessGroupBody) => request<undefined>('PUT', `/access-groups/${path(name)}`, body),
  removeGroup: (name: string) => request<undefined>('DELETE', `/access-groups/${path(name)}`),
  /** Who can read a package: its groups, the organisations licensed for it and every reader, with why. */
  unitReaders: (unit: string) => request<UnitReaders>('GET', `/units/${path(unit)}/readers`),
  previewImport: (csv: string) => importCsv(csv, false),
  applyImport: (csv: string) => importCsv(csv, true),
  /** The export's address: a download, with the session cookie. */
  exportUrl: '/api/admin/readers/export',
};
