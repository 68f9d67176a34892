import { describe, expect, it } from 'vitest';

import { unitsOfGroups } from '@portal/access';

import { familyNote, familyPackagePaths, families, type Family } from './families';

const family = (id: string): Family => {
  const found = families.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no family ${id}`);
  return found;
};

describe('familyNote', () => {
  it('counts a monorepo’s packages from the names table, signed out', () => {
    expect(familyPackagePaths('player-manager-mono')).toHaveLength(23);
    expect(familyPackagePaths('player-manager-mono')).toContain('/docs/player-manager-mono/packages/player-core/');
    expect(familyNote(family('player'), null)).toBe('23 packages');
    expect(familyNote(family('ui-toolkit'), null)).toBe('7 packages');
    // A family that is no monorepo keeps its own note.
    expect(familyNote(family('navigation'), null)).toBe('MIT');
    expect(familyNote(family('layout'), null)).toBeUndefined();
  });

  it('tells a reader who reads only some of the packages how many are theirs', () => {
    const northwind = ['account', 'player', 'player-core', 'player-manager', 'player-adapter-shaka'];
    expect(familyNote(family('player'), northwind)).toBe('You read 3 of 23 packages');
    // Reading all of them, or none (the card is locked then), the count alone.
    expect(familyNote(family('player'), unitsOfGroups(['staff']))).toBe('23 packages');
    expect(familyNote(family('ui-toolkit'), northwind)).toBe('7 packages');
  });
});
