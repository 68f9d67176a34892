import { describe, expect, it } from 'vitest';

import { AUDIT_KINDS } from '../../../../server/src/db/audit';
import { actorOf, describeEvent, KIND_LABELS } from './audit-words';

const event = (kind: string, detail: Record<string, unknown>, subjectEmail: string | null = 'dev@partner.example') =>
  describeEvent({ kind: kind as never, subjectEmail, subjectUid: 'u1', detail });

const northwind = (licences: { id: string; units: string[]; endsAt: string | null }[], extra = {}) => ({
  id: 'northwind',
  name: 'Northwind',
  domains: ['northwind.example'],
  contact: null,
  members: [],
  licences: licences.map((licence) => ({ ...licence, orphaned: [], live: true, createdAt: '', createdBy: '' })),
  ...extra,
});

describe('the audit trail in words', () => {
  it('names every kind the gate records', () => {
    // The kinds of server/src/db/audit.ts, each with a label.
    expect(Object.keys(KIND_LABELS).sort()).toEqual([...AUDIT_KINDS].sort());
  });

  it('says what was asked for and how it was answered, and what an import changed', () => {
    expect(event('access.requested', { unit: 'layout', reason: 'Our guide' })).toBe('Asked for layout: “Our guide”');
    expect(
      event('admin.access-request', {
        action: 'approved',
        unit: 'layout',
        for: 'organisation',
        organisation: 'northwind',
        endsOn: '2027-01-31',
      }),
    ).toBe('Gave layout to the organisation northwind until 2027-01-31, as asked');
    expect(event('admin.access-request', { action: 'approved', unit: 'layout', for: 'reader' })).toBe(
      'Gave layout to dev@partner.example, as asked',
    );
    expect(event('admin.access-request', { action: 'declined', unit: 'layout', reason: 'Not in the contract' })).toBe(
      'Declined dev@partner.example’s request for layout: Not in the contract',
    );
    expect(event('admin.import', { rows: 3, counts: { new: 2, moved: 1, unchanged: 0 } })).toBe(
      'Imported 3 rows of readers: 2 new, 1 moved',
    );
  });

  it('says what an administrator did to a reader', () => {
    expect(event('admin.disable', { before: { disabled: false }, after: { disabled: true } })).toBe(
      'Disabled dev@partner.example',
    );
    expect(event('admin.enable', {})).toBe('Enabled dev@partner.example');
    expect(event('admin.remove', { before: { groups: ['partner'] } })).toBe(
      'Removed dev@partner.example (was in partner)',
    );
    expect(event('admin.groups', { before: { groups: ['partner'] }, after: { groups: ['staff'] } })).toBe(
      'Groups of dev@partner.example: added staff; removed partner',
    );
    expect(event('admin.groups', { before: {}, after: { groups: [] } })).toBe(
      'Groups of dev@partner.example: no change',
    );
    expect(event('admin.invite', { method: 'provider', after: { groups: ['partner'] } })).toBe(
      'Invited dev@partner.example to sign in with GitHub into partner',
    );
    expect(event('admin.invite', { method: 'password', after: { groups: ['staff', 'admin'] } })).toBe(
      'Invited dev@partner.example with a password link into staff, admin',
    );
    expect(event('admin.withdraw-invitation', {})).toBe('Withdrew the invitation of dev@partner.example');
    // An event without a subject's e-mail names the uid.
    expect(event('admin.disable', {}, null)).toBe('Disabled u1');
  });

  it('says what changed in a licence: units added and removed, the end date and what it was', () => {
    const before = northwind([{ id: 'l1', units: ['player-core'], endsAt: null }]);
    const granted = northwind([
      { id: 'l1', units: ['player-core'], endsAt: null },
      { id: 'l2', units: ['player-adapter-shaka'], endsAt: '2027-01-31T23:59:59.999Z' },
    ]);
    expect(
      event('admin.licence', { organisation: 'northwind', licence: 'l2', action: 'granted', before, after: granted }),
    ).toBe('Licence of Northwind: added player-adapter-shaka; ends 2027-01-31');
    const changed = northwind([
      { id: 'l1', units: ['player-core', 'player-manager'], endsAt: '2026-12-31T23:59:59.999Z' },
    ]);
    expect(
      event('admin.licence', { organisation: 'northwind', licence: 'l1', action: 'changed', before, after: changed }),
    ).toBe('Licence of Northwind: added player-manager; ends 2026-12-31 (was without an end)');
    expect(
      event('admin.licence', {
        organisation: 'northwind',
        licence: 'l1',
        action: 'withdrawn',
        before,
        after: northwind([]),
      }),
    ).toBe('Licence of Northwind withdrawn: player-core');
  });

  it("says what changed in an organisation, an access group and a reader's membership", () => {
    expect(
      event('admin.organisation', { organisation: 'northwind', action: 'created', before: null, after: northwind([]) }),
    ).toBe('Created the organisation Northwind (domains northwind.example)');
    expect(
      event('admin.organisation', {
        organisation: 'northwind',
        action: 'changed',
        before: northwind([]),
        after: northwind([], { name: 'Northwind Media', domains: ['northwind.example', 'nw.example'] }),
      }),
    ).toBe('Organisation Northwind Media: renamed from Northwind; domains added nw.example');
    expect(event('admin.organisation', { organisation: 'northwind', before: northwind([]), after: null })).toBe(
      'Removed the organisation Northwind',
    );
    const group = { name: 'player-basic', label: 'Player basics', units: ['player-core'], orphaned: [], members: [] };
    expect(event('admin.access-group', { group: 'player-basic', before: null, after: group })).toBe(
      'Created the group player-basic: player-core',
    );
    expect(
      event('admin.access-group', {
        group: 'player-basic',
        before: group,
        after: { ...group, units: ['player-manager'] },
      }),
    ).toBe('Group player-basic: added player-manager; removed player-core');
    expect(event('admin.access-group', { group: 'player-basic', before: group, after: null })).toBe(
      'Removed the group player-basic',
    );
    expect(
      event('admin.membership', {
        email: 'dev@partner.example',
        before: { organisation: null, groups: [] },
        after: { organisation: 'northwind', groups: ['player-basic'] },
      }),
    ).toBe('dev@partner.example: organisation northwind (was by e-mail domain); groups added player-basic');
  });

  it('says what a reader did: sign-ins, refusals, views, tokens and apps', () => {
    expect(event('session.started', {})).toBe('');
    expect(event('session.refused', { code: 'no-access' })).toBe('Sign-in refused: no access');
    expect(event('session.ended', { code: 'disabled' })).toBe('Signed out by the portal: disabled');
    expect(event('session.logout', {})).toBe('');
    expect(event('page.view', { views: 1 })).toBe('1 view in the hour');
    expect(event('page.view', { views: 240, via: 'mcp' })).toBe('240 views in the hour, by MCP');
    expect(event('page.view', { views: 3, via: 'token' })).toBe('3 views in the hour, with a token');
    expect(event('invitation.accepted', { groups: ['partner'] })).toBe('Took up an invitation into partner');
    expect(event('token.created', { name: 'Cursor', expiresAt: '2027-01-01T10:00:00.000Z' })).toBe(
      'Made the token “Cursor”, until 2027-01-01',
    );
    expect(event('token.revoked', { name: 'Cursor', byAdministrator: true })).toBe(
      'Revoked the token “Cursor” of dev@partner.example',
    );
    expect(event('token.used', { name: 'Cursor' })).toBe('Used the token “Cursor” (first use today)');
    expect(event('oauth.authorised', { name: 'Claude' })).toBe('Allowed the app “Claude” to read as them');
    expect(event('oauth.revoked', { name: 'Claude', byAdministrator: true })).toBe(
      'Revoked the app “Claude” (by an administrator)',
    );
  });
});

describe('the audit trail of organisations’ own sign-in and SCIM provisioning', () => {
  const okta = { token: 't1', name: 'Okta' };
  const sso = { provider: 'oidc.northwind', name: 'Northwind Okta', required: false };

  it('says how an organisation’s single sign-on was set, changed and removed', () => {
    expect(
      event('admin.organisation-sign-in', { organisation: 'northwind', action: 'set', before: null, after: sso }, null),
    ).toBe('Single sign-on for northwind: “Northwind Okta” (oidc.northwind), optional');
    expect(
      event('admin.organisation-sign-in', {
        organisation: 'northwind',
        action: 'set',
        before: sso,
        after: { ...sso, provider: 'saml.northwind', required: true },
      }),
    ).toBe('Single sign-on of northwind: provider saml.northwind (was oidc.northwind); now required');
    expect(
      event('admin.organisation-sign-in', {
        organisation: 'northwind',
        action: 'set',
        before: { ...sso, required: true },
        after: { ...sso, name: 'Northwind SSO' },
      }),
    ).toBe('Single sign-on of northwind: name “Northwind SSO” (was “Northwind Okta”); no longer required');
    expect(
      event('admin.organisation-sign-in', { organisation: 'northwind', action: 'set', before: sso, after: sso }),
    ).toBe('Single sign-on of northwind: no change');
    expect(
      event('admin.organisation-sign-in', { organisation: 'northwind', action: 'removed', before: sso, after: null }),
    ).toBe('Removed the single sign-on of northwind (“Northwind Okta”, oidc.northwind): back to passwords');
  });

  it('says which groups an organisation’s SCIM client was offered or no longer is', () => {
    expect(
      event('admin.organisation-sign-in', {
        organisation: 'northwind',
        action: 'groups',
        before: { groups: ['player-basic'] },
        after: { groups: ['player-basic', 'player-pro'] },
      }),
    ).toBe('SCIM groups of northwind: added player-pro');
    expect(
      event('admin.organisation-sign-in', {
        organisation: 'northwind',
        action: 'groups',
        before: { groups: ['player-basic'] },
        after: { groups: [] },
      }),
    ).toBe('SCIM groups of northwind: removed player-basic');
    expect(
      event('admin.organisation-sign-in', {
        organisation: 'northwind',
        action: 'groups',
        before: { groups: [] },
        after: { groups: [] },
      }),
    ).toBe('SCIM groups of northwind: no change');
  });

  it('names a SCIM token made or revoked by its name and last characters, never more', () => {
    expect(
      event('admin.scim-token', {
        organisation: 'northwind',
        action: 'minted',
        token: 't1',
        name: 'Okta',
        hint: 'x9Qa',
      }),
    ).toBe('Made the SCIM token “Okta” (…x9Qa) for northwind');
    expect(
      event('admin.scim-token', {
        organisation: 'northwind',
        action: 'revoked',
        token: 't1',
        name: 'Okta',
        hint: 'x9Qa',
      }),
    ).toBe('Revoked the SCIM token “Okta” (…x9Qa) of northwind');
  });

  it('says what a SCIM client did to a reader, and what deactivating or deleting them ended', () => {
    const user = {
      userName: 'ann@northwind.example',
      email: 'ann@northwind.example',
      externalId: '00u1',
      active: true,
    };
    const scim = (detail: Record<string, unknown>) =>
      event('scim.user', { organisation: 'northwind', client: okta, ...detail }, 'ann@northwind.example');
    expect(scim({ action: 'created', after: user })).toBe('Created ann@northwind.example (SCIM client “Okta”)');
    expect(scim({ action: 'adopted', after: user })).toBe(
      'Took over the existing account ann@northwind.example (SCIM client “Okta”)',
    );
    expect(
      scim({
        action: 'changed',
        before: user,
        after: { ...user, email: 'ann.lee@northwind.example', externalId: null },
      }),
    ).toBe(
      'Changed ann@northwind.example (SCIM client “Okta”): e-mail ann.lee@northwind.example (was ann@northwind.example); external id none (was 00u1)',
    );
    expect(scim({ action: 'changed', before: user, after: user })).toBe(
      'Changed ann@northwind.example (SCIM client “Okta”)',
    );
    expect(
      scim({
        action: 'deactivated',
        before: user,
        after: { ...user, active: false },
        ended: { tokens: 2, feedTokens: 0, oauthGrants: 1, readerGrants: 1 },
      }),
    ).toBe('Deactivated ann@northwind.example (SCIM client “Okta”): ended 2 tokens, 1 connected app, 1 own grant');
    expect(
      scim({
        action: 'deactivated',
        before: user,
        after: { ...user, active: false },
        ended: { tokens: 0, feedTokens: 0 },
      }),
    ).toBe('Deactivated ann@northwind.example (SCIM client “Okta”)');
    expect(scim({ action: 'reactivated', before: { ...user, active: false }, after: user })).toBe(
      'Reactivated ann@northwind.example (SCIM client “Okta”)',
    );
    expect(scim({ action: 'deleted', before: user, ended: { tokens: 1, feedTokens: 3 } })).toBe(
      'Deleted ann@northwind.example (SCIM client “Okta”): ended 1 token, 3 feed tokens',
    );
    // An event without the client's name (an older row) still says what happened to whom.
    expect(event('scim.user', { action: 'deleted' }, 'ann@northwind.example')).toBe('Deleted ann@northwind.example');
  });

  it('says whom a SCIM client put in a group or took out of one', () => {
    expect(
      event(
        'scim.group',
        { organisation: 'northwind', client: okta, action: 'added', group: 'player-basic' },
        'ann@northwind.example',
      ),
    ).toBe('Put ann@northwind.example in the group player-basic (SCIM client “Okta”)');
    expect(
      event(
        'scim.group',
        { organisation: 'northwind', client: okta, action: 'removed', group: 'player-basic' },
        'ann@northwind.example',
      ),
    ).toBe('Took ann@northwind.example out of the group player-basic (SCIM client “Okta”)');
  });
});

describe('actorOf', () => {
  it('names an organisation’s SCIM client for what it is, and anyone else by e-mail or uid', () => {
    expect(actorOf({ actorEmail: 'scim:northwind', actorUid: null })).toBe('SCIM client of northwind');
    expect(actorOf({ actorEmail: 'admin@norigin.example', actorUid: 'u1' })).toBe('admin@norigin.example');
    expect(actorOf({ actorEmail: null, actorUid: 'u1' })).toBe('u1');
    expect(actorOf({ actorEmail: null, actorUid: null })).toBe('–');
  });
});
