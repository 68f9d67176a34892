import { describe, expect, it } from 'vitest';

import type { ReaderAccount } from './api';
import {
  changeFilters,
  confirmDisable,
  confirmRemove,
  countText,
  domainGroups,
  initialFilters,
  invitationProblem,
  loadDelay,
  readerName,
  readerStatus,
  toggleGroup,
  turnPage,
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
