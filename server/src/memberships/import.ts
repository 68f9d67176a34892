import { createHash } from 'node:crypto';

import { policy } from '@portal/access';

import type { Database } from '../db/database.js';
import { loadAccessData, writeMemberships, type AccessData } from '../db/licences.js';
import { membershipCsv, planImport, readMembershipCsv, type ImportPlan, type ImportState } from './csv.js';

/** The most changed rows an import's audit event lists one by one (its counts cover all of them). */
export const AUDITED_CHANGES = 1000;

const stateOf = (data: AccessData): ImportState => ({
  organisations: new Set(data.organisations.map((organisation) => organisation.id)),
  groups: new Set(data.groups.map((group) => group.name)),
  policyGroups: new Set(policy.groupNames),
  memberships: new Map(data.memberships.map((membership) => [membership.email, membership])),
});

/**
 * Readers' memberships from and to CSV, for the administration API (and through it the
 * readers command): a preview changes nothing; applying checks the file again inside one
 * transaction, under a lock, and writes every row or none.
 */
export const membershipImports = {
  /** What the file would do now (throws CsvFileError for a file that is not a CSV of memberships). */
  async preview(db: Database, text: string): Promise<ImportPlan> {
    const rows = await readMembershipCsv(text);
    return planImport(rows, stateOf(await loadAccessData(db)));
  },

  /** Applies the file when no row is refused; the plan says what was (or, with refusals, would have been) done. */
  async apply(db: Database, text: string): Promise<{ plan: ImportPlan; applied: boolean }> {
    const rows = await readMembershipCsv(text);
    return db.transaction(async (tx) => {
      // Two imports at once would each plan against rows the other is changing.
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', ['reader_memberships:import']);
      const plan = planImport(rows, stateOf(await loadAccessData(tx)));
      if (plan.refused.length > 0) return { plan, applied: false };
      await writeMemberships(tx, plan.writes);
      return { plan, applied: true };
    });
  },

  /** Every membership, as a CSV the import reads back. */
  async export(db: Database): Promise<string> {
    return membershipCsv((await loadAccessData(db)).memberships);
  },

  /** An applied import, as its audit event's detail: the counts, the file's fingerprint, the changes (the first AUDITED_CHANGES). */
  auditDetail(text: string, plan: ImportPlan): Record<string, unknown> {
    const changed = plan.changes.filter((change) => change.change !== 'unchanged');
    return {
      action: 'imported',
      rows: plan.rows,
      counts: plan.counts,
      sha256: createHash('sha256').update(text).digest('hex'),
      changes: changed.slice(0, AUDITED_CHANGES).map((change) => ({
        email: change.email,
        change: change.change,
        organisation: change.organisation,
        groupsAdded: change.groupsAdded,
        groupsRemoved: change.groupsRemoved,
      })),
      ...(changed.length > AUDITED_CHANGES ? { changesNotListed: changed.length - AUDITED_CHANGES } : {}),
    };
  },
};
