import { describe, expect, it } from 'vitest';

import { policy } from '@portal/access';

import type { ReaderAccount } from './api';
import {
  changeFilters,
  confirmDisable,
  confirmRemove,
  countText,
  domainGroups,
  grantsOf,
  initialFilters,
  invitationProblem,
  loadDelay,
  readerName,
  readerStatus,
  readsLines,
  toggleGroup,
  turnPage,
  guardOf,
  withChanged,
  withRemoved,
  organisationOf,
  accessGroupsOf,
  membershipOf,
} from './readers-state';

const reader = (change: Partial<ReaderAccount> = {}): ReaderAccount => ({
  uid: 'u1',
  email: 'ann@norigin.example',
  emailVerified: true,
  disabled: false,
  claimedGroups: [],
  groups: ['staff'],
  createdAt: null,
  lastSignInAt: null,
  providers: ['password'],
  ...change,
});

describe('the readers panel’s filters', () => {
  it('go back to the first page when a filter changes', () => {
    const onPage3 = { ...initialFilters, page: 3 };
    expect(changeFilters(onPage3, { group: 'partner' })).toEqual({ ...initialFilters, group: 'partner', page: 1 });
  });

  it('turn pages forwards and back, never before the first', () => {
    expect(turnPage(initialFilters, 1).page).toBe(2);
    expect(turnPage(turnPage(initialFilters, 1), -1).page).toBe(1);
    expect(turnPage(initialFilters, -1).page).toBe(1);
  });

  it('keep the other filters when the page turns', () => {
    const filtered = changeFilters(initialFilters, { q: 'ann', sort: 'created' });
    expect(turnPage(filtered, 1)).toEqual({ ...filtered, page: 2 });
  });

  it('wait for typing to pause only while searching by e-mail', () => {
    expect(loadDelay(initialFilters)).toBe(0);
    expect(loadDelay(changeFilters(initialFilters, { q: 'an' }))).toBe(250);
    expect(loadDelay(changeFilters(initialFilters, { status: 'disabled' }))).toBe(0);
  });
});

describe('a reader in the table', () => {
  it('is disabled before anything else, without access with no group, and active otherwise', () => {
    expect(readerStatus(reader({ disabled: true, groups: ['staff'] }))).toBe('disabled');
    expect(readerStatus(reader({ disabled: true, groups: [] }))).toBe('disabled');
    expect(readerStatus(reader({ groups: [] }))).toBe('no access');
    expect(readerStatus(reader({ groups: ['partner'] }))).toBe('active');
  });

  it('is active when an organisation’s licence gives them something, though they have no group', () => {
    const licensed = {
      organisation: { id: 'northwind', name: 'Northwind Media' },
      units: [
        {
          unit: 'layout',
          unitLabel: 'Layout Engine',
          sources: [{ kind: 'licence' as const, organisation: 'Northwind Media', endsAt: '2027-01-31T23:59:59.999Z' }],
        },
      ],
    };
    expect(readerStatus(reader({ groups: [] }), licensed)).toBe('active');
    expect(readerStatus(reader({ groups: ['partner'] }), { organisation: null, units: [] })).toBe('no access');
    expect(readerStatus(reader({ disabled: true, groups: [] }), licensed)).toBe('disabled');
  });

  it('says what they read, a line per licence, grant and group, in that order, with the end dates', () => {
    const everything = policy.units.filter((unit) => unit.name !== 'account');
    expect(
      readsLines({
        organisation: null,
        units: everything.map((unit) => ({
          unit: unit.name,
          unitLabel: unit.label,
          sources: [{ kind: 'group' as const, group: 'staff' }],
        })),
      }),
    ).toEqual(['Every page (group staff)']);
    expect(
      readsLines({
        organisation: { id: 'northwind', name: 'Northwind Media' },
        units: [
          {
            unit: 'layout',
            unitLabel: 'Layout Engine',
            sources: [
              { kind: 'group', group: 'partner' },
              { kind: 'licence', organisation: 'Northwind Media', endsAt: '2027-01-31T23:59:59.999Z' },
            ],
          },
          {
            unit: 'whitelabel',
            unitLabel: 'Whitelabel',
            sources: [{ kind: 'licence', organisation: 'Northwind Media', endsAt: '2027-01-31T23:59:59.999Z' }],
          },
          { unit: 'blog', unitLabel: 'Blog', sources: [{ kind: 'grant', endsAt: null }] },
        ],
      }),
    ).toEqual([
      'Layout Engine, Whitelabel: Northwind Media’s licence, until 31 Jan 2027',
      'Blog: granted to them, no end',
      '1 package or section (group partner)',
    ]);
    expect(readsLines(undefined)).toEqual([]);
  });

  it('is named by e-mail, or by id when the account has none', () => {
    expect(readerName(reader())).toBe('ann@norigin.example');
    expect(readerName(reader({ email: null, uid: 'github-4711' }))).toBe('github-4711');
  });

  it('has the groups an administrator did not set from the e-mail domain', () => {
    expect(domainGroups(reader({ claimedGroups: ['admin'], groups: ['admin', 'staff'] }))).toEqual(['staff']);
    expect(domainGroups(reader({ claimedGroups: ['partner'], groups: ['partner'] }))).toEqual([]);
  });
});

describe('choosing groups', () => {
  it('adds a ticked group after the others and removes an unticked one', () => {
    expect(toggleGroup(['partner'], 'staff', true)).toEqual(['partner', 'staff']);
    expect(toggleGroup(['partner', 'staff'], 'partner', false)).toEqual(['staff']);
  });

  it('never holds a group twice', () => {
    expect(toggleGroup(['partner'], 'partner', true)).toEqual(['partner']);
  });

  it('refuses to invite into no group', () => {
    expect(invitationProblem([])).toBe('Choose at least one group.');
    expect(invitationProblem(['partner'])).toBeNull();
  });
});

describe('the words above the table', () => {
  it('count readers, naming the page only when there are several', () => {
    expect(countText({ total: 1, page: 1, pages: 1 })).toBe('1 reader');
    expect(countText({ total: 0, page: 1, pages: 1 })).toBe('0 readers');
    expect(countText({ total: 120, page: 2, pages: 3 })).toBe('120 readers · page 2 of 3');
  });
});

describe('the confirmations', () => {
  it('ask before disabling, without the danger colour, and say it is done', () => {
    expect(confirmDisable(reader())).toMatchObject({
      title: 'Disable ann@norigin.example?',
      confirm: 'Disable',
      danger: false,
      done: 'ann@norigin.example is disabled.',
    });
  });

  it('ask before removing, in the danger colour, saying it cannot be undone', () => {
    const asked = confirmRemove(reader());
    expect(asked).toMatchObject({
      title: 'Remove ann@norigin.example?',
      confirm: 'Remove for good',
      danger: true,
      done: 'ann@norigin.example was removed.',
    });
    expect(asked.body).toMatch(/cannot be undone/);
  });
});

describe('the guards the page shows before anyone clicks', () => {
  const admin = reader({ uid: 'a1', groups: ['admin'], claimedGroups: ['admin'] });
  it("names one's own account, and the last administrator, and nobody else", () => {
    expect(guardOf(admin, { self: 'a1', administrators: 3 })).toMatch(/^Your own account/);
    expect(guardOf(admin, { self: 'other', administrators: 1 })).toMatch(/^The only administrator/);
    expect(guardOf(admin, { self: 'other', administrators: 2 })).toBeNull();
    expect(guardOf(reader(), { self: 'other', administrators: 1 })).toBeNull();
    // A disabled administrator is no administrator who can sign in.
    expect(guardOf({ ...admin, disabled: true }, { self: 'other', administrators: 1 })).toBeNull();
  });

  it("follow every change: the row's status at once, the count of administrators with it", () => {
    const page = {
      readers: [admin, reader({ uid: 'a2', groups: ['admin'] })] as ReaderAccount[],
      access: {},
      total: 2,
      page: 1,
      pages: 1,
      invitations: [],
      groups: [],
      self: 'a1',
      administrators: 2,
    };
    const other = reader({ uid: 'a2', groups: ['admin'] });
    const disabled = withChanged(page, { ...other, disabled: true });
    expect(disabled.readers[1]?.disabled).toBe(true);
    expect(disabled.administrators).toBe(1);
    expect(guardOf(admin, { ...disabled, self: 'x' })).toMatch(/^The only administrator/);
    expect(withChanged(disabled, other).administrators).toBe(2);
    const removed = withRemoved(page, 'a2');
    expect(removed).toMatchObject({ total: 1, administrators: 1 });
    expect(removed.readers.map((r) => r.uid)).toEqual(['a1']);
  });
});

describe("a reader's organisation and groups made here", () => {
  const access = {
    organisations: [
      { id: 'northwind', name: 'Northwind', domains: ['northwind.example'], contact: null, licences: [], members: [] },
      {
        id: 'lumen',
        name: 'Lumen Media',
        domains: ['lumen.example'],
        contact: null,
        licences: [],
        members: ['dev@northwind.example'],
      },
    ],
    groups: [{ name: 'player-basic', label: 'Player', units: [], orphaned: [], members: ['dev@northwind.example'] }],
  };
  it('is the one an administrator placed them in, else their verified domain’s, else none', () => {
    expect(organisationOf({ email: 'Dev@Northwind.example', emailVerified: true }, access)).toEqual({
      id: 'lumen',
      name: 'Lumen Media',
      how: 'placed',
    });
    expect(organisationOf({ email: 'ops@northwind.example', emailVerified: true }, access)).toEqual({
      id: 'northwind',
      name: 'Northwind',
      how: 'domain',
    });
    expect(organisationOf({ email: 'ops@northwind.example', emailVerified: false }, access)).toBeNull();
    expect(organisationOf({ email: null, emailVerified: true }, access)).toBeNull();
    expect(accessGroupsOf({ email: 'dev@northwind.example' }, access)).toEqual(['player-basic']);
    expect(membershipOf({ email: 'dev@northwind.example', emailVerified: true }, access)).toEqual({
      organisation: 'lumen',
      groups: ['player-basic'],
    });
    expect(membershipOf({ email: 'ops@northwind.example', emailVerified: true }, access)).toEqual({
      organisation: null,
      groups: [],
    });
  });
});

describe("a reader's own grants", () => {
  it('lists each grant once with every package it gives, and nothing for licences and groups', () => {
    const grant = (id: string) => ({ kind: 'grant' as const, endsAt: null, id });
    expect(
      grantsOf({
        organisation: null,
        units: [
          { unit: 'layout', unitLabel: 'Layout Engine', sources: [grant('g1'), { kind: 'group', group: 'partner' }] },
          { unit: 'blog', unitLabel: 'Blog', sources: [grant('g1')] },
          { unit: 'whitelabel', unitLabel: 'Whitelabel setup', sources: [grant('g2')] },
          {
            unit: 'navigation',
            unitLabel: 'Spatial navigation',
            sources: [{ kind: 'licence', organisation: 'N', endsAt: null }],
          },
        ],
      }),
    ).toEqual([
      { id: 'g1', labels: ['Layout Engine', 'Blog'] },
      { id: 'g2', labels: ['Whitelabel setup'] },
    ]);
    expect(grantsOf(undefined)).toEqual([]);
  });
});
