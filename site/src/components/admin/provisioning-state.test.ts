import { afterEach, describe, expect, it, vi } from 'vitest';

import { OrganisationSignInBody } from '@portal/contract';
import { stubApi } from '@site/src/api/fetch-stub';

import { provisioningApi } from './provisioning-api';
import {
  callOutcome,
  callsSummary,
  callTokenName,
  groupChoice,
  groupsNotice,
  nameProblem,
  PROVIDER_PATTERN,
  providerProblem,
  readersWords,
  signInBody,
  signInWords,
  ssoLabel,
} from './provisioning-state';

afterEach(() => vi.unstubAllGlobals());

/** The pattern the server checks a provider's id against (the contract's schema). */
const contractPattern = (OrganisationSignInBody.properties.provider as { pattern?: string }).pattern ?? '';

describe('the check of a provider’s id', () => {
  it('is the contract’s own pattern, so the page refuses nothing the server takes', () => {
    expect(PROVIDER_PATTERN.source).toBe(contractPattern);
  });

  it.each(['oidc.northwind', 'saml.northwind-okta', 'oidc.A1._-x', ' oidc.northwind ', `oidc.${'a'.repeat(63)}`])(
    'takes %j',
    (provider) => {
      expect(providerProblem(provider)).toBeNull();
      expect(new RegExp(contractPattern).test(provider.trim())).toBe(true);
    },
  );

  it.each([
    ['', /Enter the provider’s id/],
    ['   ', /Enter the provider’s id/],
    ['northwind', /“northwind” is not an OIDC or SAML provider’s id: it starts with “oidc\.” or “saml\.”/],
    ['google.com', /not an OIDC or SAML provider’s id/],
    ['OIDC.northwind', /not an OIDC or SAML provider’s id/],
    ['oidc.', /Add the provider’s name after “oidc\.”/],
    ['saml.-northwind', /After “saml\.”, use only letters, digits, dots, dashes and underscores, starting with/],
    ['oidc.north wind', /use only letters, digits, dots, dashes and underscores/],
    ['oidc.nörthwind', /use only letters/],
    [`oidc.${'a'.repeat(64)}`, /is 64 characters long; at most 63 are allowed/],
  ])('refuses %j in words', (provider, words) => {
    const problem = providerProblem(provider);
    expect(problem).toMatch(words);
    // Whatever the page refuses, the contract's pattern refuses too (after the spaces the page trims).
    expect(new RegExp(contractPattern).test(provider.trim())).toBe(false);
  });

  it('asks for the name the sign-in page shows, within its length', () => {
    expect(nameProblem('  ')).toMatch(/Enter the name the sign-in page shows/);
    expect(nameProblem('x'.repeat(81))).toBe('The name is 81 characters long; at most 80 are allowed.');
    expect(nameProblem(' Northwind Okta ')).toBeNull();
  });

  it('sends the id and the name without the spaces around them', () => {
    expect(signInBody({ provider: ' oidc.northwind ', name: ' Northwind Okta  ', required: true })).toEqual({
      provider: 'oidc.northwind',
      name: 'Northwind Okta',
      required: true,
    });
  });
});

describe('an organisation’s sign-in in words', () => {
  const sso = { provider: 'oidc.northwind', name: 'Northwind Okta', required: false };

  it('labels its row only when it has its own sign-in', () => {
    expect(ssoLabel(undefined)).toBeNull();
    expect(ssoLabel(null)).toBeNull();
    expect(ssoLabel(sso)).toBe('SSO');
    expect(ssoLabel({ ...sso, required: true })).toBe('SSO required');
  });

  it('says how its readers sign in', () => {
    expect(signInWords(null, ['northwind.example'])).toBe(
      'Readers at northwind.example sign in with a password or the portal’s other ways; it has no single sign-on.',
    );
    expect(signInWords(sso, [])).toBe(
      'Its readers may sign in with “Northwind Okta” (oidc.northwind), or with a password or the portal’s other ways.',
    );
    expect(signInWords({ ...sso, required: true }, ['northwind.example', 'nw.example'])).toBe(
      'Readers at northwind.example, nw.example must sign in with “Northwind Okta” (oidc.northwind); any other sign-in of theirs reads nothing.',
    );
  });
});

describe('the groups its SCIM client may use', () => {
  it('checks the offered groups that still exist and sets apart those that do not', () => {
    const groups = [{ name: 'player-basic' }, { name: 'player-pro' }];
    expect(groupChoice(['player-pro', 'gone'], groups)).toEqual({ selected: ['player-pro'], stale: ['gone'] });
    expect(groupChoice([], groups)).toEqual({ selected: [], stale: [] });
  });

  it('says what was saved', () => {
    expect(groupsNotice(['player-pro', 'player-basic'])).toBe(
      'Its SCIM client may now put readers in player-basic, player-pro.',
    );
    expect(groupsNotice([])).toBe('Its SCIM client may put readers in no group now.');
  });
});

describe('the last provisioning calls', () => {
  it('tells a call done from one the portal refused or failed', () => {
    expect([200, 201, 204, 304, 399, 400, 401, 404, 409, 429, 499, 500, 503].map(callOutcome)).toEqual([
      'done',
      'done',
      'done',
      'done',
      'done',
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
      'failed',
      'failed',
    ]);
  });

  it('sums them up above their table, and says when there is none', () => {
    expect(callsSummary([])).toBe('Its SCIM client has not called the portal yet.');
    expect(callsSummary([{ status: 201 }])).toBe('The last call: 1 done.');
    expect(callsSummary([{ status: 400 }])).toBe('The last call: 1 refused.');
    expect(callsSummary([{ status: 201 }, { status: 409 }, { status: 200 }, { status: 503 }, { status: 401 }])).toBe(
      'The last 5 calls: 2 done, 2 refused, 1 failed.',
    );
  });

  it('names the token a call came with', () => {
    const tokens = [{ id: 't1', name: 'Okta' }];
    expect(callTokenName({ token: 't1' }, tokens)).toBe('Okta');
    expect(callTokenName({ token: 't2' }, tokens)).toBe('a token no longer listed');
    expect(callTokenName({ token: null }, tokens)).toBe('not recorded');
  });

  it('counts the provisioned readers in words', () => {
    expect(readersWords(0)).toBe('No reader is provisioned by SCIM yet.');
    expect(readersWords(1)).toBe('1 reader provisioned by SCIM.');
    expect(readersWords(14)).toBe('14 readers provisioned by SCIM.');
  });
});

describe('the provisioning calls of the admin pages', () => {
  it('reads and changes an organisation’s sign-in, tokens and groups at paths that carry its ids encoded', async () => {
    const calls = stubApi(204);
    await provisioningApi.setSignIn('north/wind', { provider: 'oidc.northwind', name: 'Okta', required: true });
    await provisioningApi.removeSignIn('north/wind');
    await provisioningApi.revokeToken('north/wind', 'tok#1');
    await provisioningApi.setGroups('north/wind', ['player-basic']);
    expect(calls).toEqual([
      {
        method: 'PUT',
        url: '/api/admin/organisations/north%2Fwind/sign-in',
        body: { provider: 'oidc.northwind', name: 'Okta', required: true },
      },
      { method: 'DELETE', url: '/api/admin/organisations/north%2Fwind/sign-in', body: undefined },
      { method: 'DELETE', url: '/api/admin/organisations/north%2Fwind/scim-tokens/tok%231', body: undefined },
      { method: 'PUT', url: '/api/admin/organisations/north%2Fwind/scim-groups', body: { groups: ['player-basic'] } },
    ]);
  });

  it('gets the new token’s secret once, from the answer to making it', async () => {
    const calls = stubApi(201, { id: 't1', name: 'Okta', token: 'ndp_scim_secret' });
    await expect(provisioningApi.mintToken('northwind', 'Okta')).resolves.toEqual({
      id: 't1',
      name: 'Okta',
      token: 'ndp_scim_secret',
    });
    expect(calls).toEqual([
      { method: 'POST', url: '/api/admin/organisations/northwind/scim-tokens', body: { name: 'Okta' } },
    ]);
  });

  it('fails with the server’s reason', async () => {
    stubApi(400, { error: '"gone" is not a group of the administrators (Organisations, Groups)' });
    await expect(provisioningApi.setGroups('northwind', ['gone'])).rejects.toMatchObject({
      status: 400,
      message: '"gone" is not a group of the administrators (Organisations, Groups)',
    });
  });
});
