import { policy } from '@portal/access';
import type { AccessRequestInfo } from '@portal/contract';

import type { AccessRequest } from './db/access-requests.js';

/** A unit's label as the policy names it (its name when the policy has no such unit). */
export const unitLabel = (unit: string): string => policy.units.find((info) => info.name === unit)?.label ?? unit;

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** An access request as its reader, and the administrators' queue, see it. */
export function accessRequestInfo(request: AccessRequest): AccessRequestInfo {
  return {
    id: request.id,
    unit: request.unit,
    unitLabel: unitLabel(request.unit),
    path: request.path,
    reason: request.reason,
    status: request.status,
    createdAt: request.createdAt.toISOString(),
    answeredAt: iso(request.answeredAt),
    grantedTo: request.grantedTo,
    endsAt: iso(request.endsAt),
    answer: request.answer,
  };
}
