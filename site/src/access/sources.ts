/**
 * What a reader reads, by where it comes from (`GET /api/access` for the reader's own
 * account page, the readers table's `access` for administrators): one entry per group, per
 * licence end and per grant end, with the labels of the units each gives, their
 * organisation's licence first, then their own grants, then their groups.
 */
import { policy } from '@portal/access';
import type { AccessSource, MyAccessAnswer } from '@portal/contract';

export interface SourceOfAccess {
  source: AccessSource;
  labels: string[];
  /** A group that reads every page: its units need not be listed. */
  everything: boolean;
}

const RANK = { licence: 0, grant: 1, group: 2 } as const;

const keyOf = (source: AccessSource): string =>
  source.kind === 'group'
    ? `group ${source.group}`
    : source.kind === 'licence'
      ? `licence ${source.organisation} ${source.endsAt ?? ''}`
      : `grant ${source.endsAt ?? ''}`;

export function accessBySource(access: MyAccessAnswer): SourceOfAccess[] {
  const found = new Map<string, SourceOfAccess>();
  for (const unit of access.units)
    for (const source of unit.sources) {
      const key = keyOf(source);
      const entry = found.get(key) ?? {
        source,
        labels: [],
        everything: source.kind === 'group' && policy.fullAccessGroups.includes(source.group),
      };
      entry.labels.push(unit.unitLabel);
      found.set(key, entry);
    }
  return [...found.values()].sort((a, b) => RANK[a.source.kind] - RANK[b.source.kind]);
}
