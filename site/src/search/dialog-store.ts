/**
 * Whether the search dialog is open, and with what query: one dialog for the whole page,
 * opened from the navbar, the mobile menu, the keyboard shortcuts or the not-found page.
 * Kept outside React so that any component can open it without a provider.
 */
import { useSyncExternalStore } from 'react';

export interface SearchDialogState {
  /** The path the dialog was opened on (navigating anywhere closes it), or null when closed. */
  openOn: string | null;
  /** The query it opens with. */
  query: string;
  /** Counts openings, so each one starts afresh. */
  opening: number;
}

const closed: SearchDialogState = { openOn: null, query: '', opening: 0 };
let state = closed;
const listeners = new Set<() => void>();

function set(next: SearchDialogState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function openSearch(pathname: string, query = ''): void {
  set({ openOn: pathname, query, opening: state.opening + 1 });
}

export function closeSearch(): void {
  if (state.openOn !== null) set({ ...state, openOn: null });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useSearchDialog(): SearchDialogState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => closed,
  );
}
