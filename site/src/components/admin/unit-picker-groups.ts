import type { UnitInfo } from '@portal/contract';

/** The shelves of the unit picker, in the order an administrator reads them. */
export const UNIT_SHELVES = ['Player packages', 'Adapters', 'UI toolkit', 'Apps', 'Other'] as const;
export type UnitShelf = (typeof UNIT_SHELVES)[number];

/**
 * Units no licence or group should give: every reader has their account page, and the
 * administration is the `admin` group's alone (a licence of it would make a partner an administrator).
 */
export const NOT_LICENSABLE: readonly string[] = ['account', 'administration'];

/** Which shelf a unit sits on, from its name as the policy spells it. */
export function shelfOf(unit: string): UnitShelf {
  if (/^(player|tracking)-adapter-/.test(unit)) return 'Adapters';
  if (/^(player|tracking)(-|$)/.test(unit)) return 'Player packages';
  if (/^ui-/.test(unit)) return 'UI toolkit';
  if (unit === 'apps' || unit.endsWith('-app')) return 'Apps';
  return 'Other';
}

/** The policy's units on their shelves (empty shelves left out), in the policy's order within each. */
export function unitShelves(units: readonly UnitInfo[]): { shelf: UnitShelf; units: UnitInfo[] }[] {
  return UNIT_SHELVES.map((shelf) => ({
    shelf,
    units: units.filter((unit) => !NOT_LICENSABLE.includes(unit.name) && shelfOf(unit.name) === shelf),
  })).filter((entry) => entry.units.length > 0);
}
