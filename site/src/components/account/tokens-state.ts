/**
 * What the account page's token panel shows, as a reducer of what happened to it, so the
 * rules (which message wins, when the new secret is hidden) are tested without React.
 */
import type { CreatedToken, TokenList, TokenRecord } from './api';

export interface TokensState {
  /** The last list the server gave; null until the first one arrives. */
  list: TokenList | null;
  /** Why the list could not be loaded; shown only while there is no list at all. */
  loadError: string | null;
  /** Why the last revocation failed. */
  error: string | null;
  /** What the last revocation did. */
  notice: string | null;
  /** The token just made, whose secret is shown once. */
  created: CreatedToken | null;
}

export type TokensEvent =
  | { type: 'loaded'; list: TokenList }
  | { type: 'loadFailed'; message: string }
  | { type: 'created'; created: CreatedToken }
  | { type: 'secretDismissed' }
  | { type: 'revoking' }
  | { type: 'revoked'; token: TokenRecord }
  | { type: 'revokeFailed'; message: string };

export const initialTokensState: TokensState = {
  list: null,
  loadError: null,
  error: null,
  notice: null,
  created: null,
};

export function tokensReducer(state: TokensState, event: TokensEvent): TokensState {
  switch (event.type) {
    case 'loaded':
      return { ...state, list: event.list, loadError: null };
    case 'loadFailed':
      return { ...state, loadError: event.message };
    case 'created':
      return { ...state, created: event.created, notice: null };
    case 'secretDismissed':
      return { ...state, created: null };
    case 'revoking':
      return { ...state, notice: null };
    case 'revoked':
      return {
        ...state,
        error: null,
        notice: `“${event.token.name}” is revoked.`,
        // A revoked token's secret is worth nothing: stop showing it.
        created: state.created?.record.id === event.token.id ? null : state.created,
      };
    case 'revokeFailed':
      return { ...state, error: event.message };
  }
}

/** Which of the panel's three faces to show: a failed first load, loading, or the list. */
export function tokensView(state: TokensState): 'failed' | 'loading' | 'ready' {
  if (state.list !== null) return 'ready';
  return state.loadError !== null ? 'failed' : 'loading';
}
