import { describe, expect, it } from 'vitest';

import { policy } from '@portal/access';

import { shelfOf, unitShelves } from './unit-picker-groups';

describe('the unit picker shelves', () => {
  it('puts each unit of the policy on the shelf an administrator looks for it on', () => {
    expect(shelfOf('player-core')).toBe('Player packages');
    expect(shelfOf('player')).toBe('Player packages');
    expect(shelfOf('tracking-manager')).toBe('Player packages');
    expect(shelfOf('player-adapter-shaka')).toBe('Adapters');
    expect(shelfOf('tracking-adapter-conviva')).toBe('Adapters');
    expect(shelfOf('ui-hooks')).toBe('UI toolkit');
    expect(shelfOf('demo-app')).toBe('Apps');
    expect(shelfOf('layout')).toBe('Other');
  });

  it('offers every unit of the policy once, but never the account page or the administration', () => {
    const shelves = unitShelves(policy.units.map((unit) => ({ name: unit.name, label: unit.label })));
    const offered = shelves.flatMap((entry) => entry.units.map((unit) => unit.name));
    expect(new Set(offered).size).toBe(offered.length);
    expect([...offered].sort()).toEqual(
      policy.unitNames.filter((name) => name !== 'account' && name !== 'administration').sort(),
    );
    expect(shelves.map((entry) => entry.shelf)).toEqual(['Player packages', 'Adapters', 'UI toolkit', 'Apps', 'Other']);
  });
});
