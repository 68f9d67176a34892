import { describe, expect, it, vi } from 'vitest';

import { ALL_UNITS, unitsOfGroups } from '@portal/access';

import { emptyAccessData, type AccessData } from '../db/licences.js';
import { sharedState } from '../shared.js';
import { Licences, signInRefusal } from './licences.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T12:00:00Z');

function licencesAt(clock: () => number, data: Partial<AccessData> = {}): Licences {
  const licences = new Licences({
    db: () => null,
    shared: sharedState(null, { warn: () => undefined }),
    log: { error: () => undefined },
    clock,
  });
  licences.use({ ...emptyAccessData(), ...data });
  return licences;
}

const northwind = {
  id: 'northwind',
  name: 'Northwind Broadcasting',
  domains: ['northwind.example'],
  contact: null,
  createdAt: new Date(NOW - 10 * DAY),
  signIn: null,
};
const licence = (units: string[], endsAt: Date | null = null, id = units.join(',')) => ({
  id,
  organisationId: 'northwind',
  units,
  endsAt,
  createdAt: new Date(NOW - DAY),
  createdBy: 'admin@norigin.example',
});
const account = (email: string, groups: string[] = [], emailVerified = true) => ({ email, emailVerified, groups });

describe("a reader's units", () => {
  it("are the policy groups' units when no data names them", () => {
    const licences = licencesAt(() => NOW);
    expect(licences.unitsOf(account('dev@elsewhere.example', ['partner'])).units).toEqual(unitsOfGroups(['partner']));
    expect(licences.unitsOf(account('dev@elsewhere.example')).units).toEqual([]);
  });

  it("add their organisation's live licences, by verified e-mail domain, with the account page", () => {
    const licences = licencesAt(() => NOW, {
      organisations: [northwind],
      licences: [licence(['player-core', 'player-adapter-shaka']), licence(['blog'], new Date(NOW - 1))],
    });
    const reader = licences.unitsOf(account('Dev@Northwind.example'));
    expect(reader.units).toEqual(['account', 'player-core', 'player-adapter-shaka']);
    expect(reader.organisation).toBe('northwind');
    // An address the identity service has not verified proves nothing about its domain.
    expect(licences.unitsOf(account('dev@northwind.example', [], false)).units).toEqual([]);
  });

  it('follow a membership before the domain, and the groups administrators made', () => {
    const licences = licencesAt(() => NOW, {
      organisations: [northwind, { ...northwind, id: 'lumen', name: 'Lumen', domains: ['lumen.example'] }],
      licences: [licence(['player-core']), { ...licence(['layout']), organisationId: 'lumen' }],
      groups: [{ name: 'player-basic', label: 'Player basics', units: ['player', 'tracking-manager'] }],
      memberships: [{ email: 'moved@northwind.example', organisationId: 'lumen', groups: ['player-basic', 'gone'] }],
    });
    const reader = licences.unitsOf(account('moved@northwind.example'));
    expect(reader.organisation).toBe('lumen');
    expect(reader.units).toEqual(['account', 'player', 'tracking-manager', 'layout']);
    // A group that no longer exists gives nothing.
    expect(reader.groups).toEqual(['player-basic']);
  });

  it('skip a unit the policy no longer has: the grant stays, orphaned, and reads nothing', () => {
    const licences = licencesAt(() => NOW, {
      organisations: [northwind],
      licences: [licence(['player-adapter-flash', 'blog'])],
    });
    expect(licences.unitsOf(account('dev@northwind.example')).units).toEqual(['account', 'blog']);
    expect(licences.unitsOf(account('dev@northwind.example')).units).not.toContain('player-adapter-flash');
  });

  it("add the reader's own live grants (approved requests), for that address only", () => {
    const licences = licencesAt(() => NOW, {
      grants: [
        { id: 'g1', email: 'solo@elsewhere.example', units: ['layout'], endsAt: null, requestId: null },
        { id: 'g2', email: 'solo@elsewhere.example', units: ['blog'], endsAt: new Date(NOW - 1), requestId: null },
      ],
    });
    expect(licences.unitsOf(account('Solo@Elsewhere.example')).units).toEqual(['account', 'layout']);
    expect(licences.unitsOf(account('other@elsewhere.example')).units).toEqual([]);
  });

  it('say why a unit is not read: internal, ended on a day, or none of theirs', () => {
    const end = new Date(NOW - 3 * DAY);
    const licences = licencesAt(() => NOW, {
      organisations: [northwind],
      licences: [licence(['player-core'], new Date(NOW - 10 * DAY), 'a'), licence(['player-core'], end, 'b')],
    });
    expect(licences.whyNot('dev@northwind.example', 'northwind', 'player-core')).toEqual({
      reason: 'ended',
      endedAt: end,
    });
    expect(licences.whyNot('dev@northwind.example', 'northwind', 'layout')).toEqual({ reason: 'not-licensed' });
    expect(licences.whyNot('dev@northwind.example', null, 'player-core')).toEqual({ reason: 'not-licensed' });
    expect(licences.whyNot('dev@northwind.example', 'northwind', 'internal')).toEqual({ reason: 'internal' });
    expect(licences.whyNot('dev@northwind.example', 'northwind', 'administration')).toEqual({ reason: 'internal' });
  });

  it('keep the unit of files no page loads for the groups that read every unit', () => {
    const licences = licencesAt(() => NOW);
    expect(licences.unitsOf(account('reader@norigin.example', ['staff'])).units).toContain(ALL_UNITS);
  });
});

describe('a licence that ends', () => {
  it('stops reading at its end, and the version changes then without a reload', () => {
    vi.useFakeTimers({ now: NOW });
    try {
      const licences = licencesAt(() => Date.now(), {
        organisations: [northwind],
        licences: [licence(['player-core'], new Date(NOW + 30_000))],
      });
      const before = licences.version;
      expect(licences.unitsOf(account('dev@northwind.example')).units).toContain('player-core');
      vi.advanceTimersByTime(30_001);
      expect(licences.version).toBe(before + 1);
      expect(licences.unitsOf(account('dev@northwind.example')).units).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a change on another replica', () => {
  it('is read again when the shared state broadcasts it', async () => {
    const shared = sharedState(null, { warn: () => undefined });
    const reads: number[] = [];
    const licences = new Licences({
      db: () => ({ query: async () => (reads.push(1), []) }) as never,
      shared,
      log: { error: () => undefined },
    });
    await shared.broadcast({ access: '1' });
    await vi.waitFor(() => expect(licences.ready).toBe(true));
    // One query per table.
    expect(reads).toHaveLength(5);
  });
});

describe("an organisation's own sign-in", () => {
  const own = { provider: 'oidc.northwind', name: 'Northwind SSO', required: false };
  const required = { ...own, required: true };

  it('without a rule: a password or a social sign-in counts, an OIDC or SAML provider vouches for nobody', () => {
    expect(signInRefusal(null, 'password')).toBeNull();
    expect(signInRefusal(null, 'google.com')).toBeNull();
    expect(signInRefusal(null, 'oidc.x')).toBe('wrong-provider');
    expect(signInRefusal(null, 'saml.x')).toBe('wrong-provider');
  });

  it('with a rule not required: a password and its own provider count, another provider does not', () => {
    expect(signInRefusal(own, 'password')).toBeNull();
    expect(signInRefusal(own, 'google.com')).toBeNull();
    expect(signInRefusal(own, 'oidc.northwind')).toBeNull();
    expect(signInRefusal(own, 'oidc.y')).toBe('wrong-provider');
    expect(signInRefusal(own, 'saml.northwind')).toBe('wrong-provider');
  });

  it('with a rule required: only its own provider counts', () => {
    expect(signInRefusal(required, 'password')).toBe('sso-required');
    expect(signInRefusal(required, 'google.com')).toBe('sso-required');
    expect(signInRefusal(required, 'oidc.northwind')).toBeNull();
    expect(signInRefusal(required, 'oidc.y')).toBe('wrong-provider');
  });

  it("is the rule of the e-mail's domain, and a refused sign-in reads nothing", () => {
    const licences = licencesAt(() => NOW, {
      organisations: [{ ...northwind, signIn: required }],
      licences: [licence(['layout'])],
    });
    expect(licences.signInOf('Dev@Northwind.Example')).toEqual({ ...required, organisation: 'Northwind Broadcasting' });
    expect(licences.signInOf('dev@elsewhere.example')).toBeNull();
    expect(licences.signInOf('dev@sub.northwind.example')).toBeNull();
    const reader = (signInProvider?: string) =>
      licences.unitsOf({ ...account('dev@northwind.example'), ...(signInProvider ? { signInProvider } : {}) });
    expect(reader('oidc.northwind').units).toEqual(['account', 'layout']);
    expect(reader('password')).toEqual({ groups: [], units: [], organisation: null });
    expect(reader('oidc.other').units).toEqual([]);
    // Without a sign-in (an account looked at, not signing in), the rule is not asked.
    expect(reader().units).toEqual(['account', 'layout']);
  });
});
