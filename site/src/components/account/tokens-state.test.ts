import { describe, expect, it } from 'vitest';

import type { CreatedToken, TokenList, TokenRecord } from './api';
import { initialTokensState, tokensReducer, tokensView, type TokensEvent, type TokensState } from './tokens-state';

const record = (id: string, name: string): TokenRecord => ({
  id,
  name,
  hint: `norigin_pat_${id}…`,
  createdAt: '2026-11-20T10:00:00.000Z',
  expiresAt: '2026-12-20T10:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  scope: 'read',
});

const laptop = record('t1', 'laptop');
const ci = record('t2', 'CI runner');
const list: TokenList = {
  email: 'dev@partner-studio.example',
  groups: ['partner'],
  groupLabels: [{ name: 'partner', label: 'Partner developers' }],
  tokens: [laptop, ci],
  maxDays: 90,
  maxLive: 10,
};
const created: CreatedToken = { token: 'norigin_pat_secret', record: laptop };

const after = (...events: TokensEvent[]): TokensState => events.reduce(tokensReducer, initialTokensState);

describe('the account page’s token panel', () => {
  it('is loading until the first list arrives, then shows it', () => {
    expect(tokensView(initialTokensState)).toBe('loading');
    const loaded = after({ type: 'loaded', list });
    expect(tokensView(loaded)).toBe('ready');
    expect(loaded.list).toBe(list);
  });

  it('shows a failed first load, and the list once a retry brings it', () => {
    const failed = after({ type: 'loadFailed', message: 'Could not load your tokens.' });
    expect(tokensView(failed)).toBe('failed');
    expect(failed.loadError).toBe('Could not load your tokens.');
    const retried = tokensReducer(failed, { type: 'loaded', list });
    expect(tokensView(retried)).toBe('ready');
    expect(retried.loadError).toBeNull();
  });

  it('keeps showing the list it has when a later reload fails', () => {
    const state = after({ type: 'loaded', list }, { type: 'loadFailed', message: 'offline' });
    expect(tokensView(state)).toBe('ready');
    expect(state.list).toBe(list);
  });

  it('shows a new token’s secret until the reader is done with it', () => {
    const shown = after({ type: 'loaded', list }, { type: 'created', created });
    expect(shown.created).toBe(created);
    expect(
      after({ type: 'loaded', list }, { type: 'created', created }, { type: 'secretDismissed' }).created,
    ).toBeNull();
  });

  it('clears the last revocation’s notice when a token is made', () => {
    const state = after({ type: 'loaded', list }, { type: 'revoked', token: ci }, { type: 'created', created });
    expect(state.notice).toBeNull();
  });

  it('says which token was revoked and clears an earlier failure', () => {
    const state = after(
      { type: 'loaded', list },
      { type: 'revokeFailed', message: 'The token was not revoked; try again.' },
      { type: 'revoking' },
      { type: 'revoked', token: ci },
    );
    expect(state.notice).toBe('“CI runner” is revoked.');
    expect(state.error).toBeNull();
  });

  it('hides the secret of the token just revoked, and only of that one', () => {
    const revokedNew = after({ type: 'created', created }, { type: 'revoked', token: laptop });
    expect(revokedNew.created).toBeNull();
    const revokedOther = after({ type: 'created', created }, { type: 'revoked', token: ci });
    expect(revokedOther.created).toBe(created);
  });

  it('clears the notice when a revocation starts, and shows only the error if it fails', () => {
    const state = after(
      { type: 'revoked', token: ci },
      { type: 'revoking' },
      { type: 'revokeFailed', message: 'Your session has ended.' },
    );
    expect(state.notice).toBeNull();
    expect(state.error).toBe('Your session has ended.');
  });
});
