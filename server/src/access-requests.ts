import { policy } from '@portal/access';
import type { AccessRequestInfo, MyAccessAnswer } from '@portal/contract';

import type { Licences } from './auth/licences.js';
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

/**
 * What an account reads and why, as the reader's account page shows it (`GET /api/access`):
 * its organisation, and each unit with every group, licence and grant that gives it.
 */
export function accessOf(
  licences: Licences,
  account: { email: string | null; emailVerified: boolean; groups: readonly string[] },
): MyAccessAnswer {
  if (account.email === null) return { organisation: null, units: [] };
  const { organisation, units } = licences.sourcesOf({
    email: account.email,
    emailVerified: account.emailVerified,
    groups: account.groups,
  });
  return {
    organisation: organisation ? { id: organisation.id, name: organisation.name } : null,
    units: units.map(({ unit, sources }) => ({
      unit,
      unitLabel: unitLabel(unit),
      sources: sources.map((source) =>
        source.kind === 'group'
          ? source
          : source.kind === 'licence'
            ? { kind: 'licence', organisation: organisation?.name ?? '', endsAt: iso(source.endsAt) }
            : { kind: 'grant', endsAt: iso(source.endsAt), id: source.id },
      ),
    })),
  };
}
