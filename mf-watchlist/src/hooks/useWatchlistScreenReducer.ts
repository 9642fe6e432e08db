import type { StoredWatchlist, Teaser } from 'contracts';

/**
 * State of the watchlist screen (spec point 4): `loading` until the first answer, then
 * `loaded` (empty or with entries); the PDF download is `idle` or `downloading`.
 */
export interface WatchlistScreenState {
  status: 'loading' | 'loaded';
  /** Saved articles as the server resolved them, in watchlist order. */
  entries: Teaser[];
  related: Teaser[];
  /** Empty when there is nothing to share. */
  sharingUrl: string;
  download: 'idle' | 'downloading';
  /** The "link copied" confirmation is showing. */
  copyConfirmed: boolean;
  /** The last add/remove from this screen could not be saved in local storage. */
  storageFailed: boolean;
}

export type WatchlistScreenAction =
  | { type: 'loadSucceeded'; storedWatchlist: StoredWatchlist }
  | { type: 'loadFailed' }
  | { type: 'articleDropped'; id: string }
  | { type: 'downloadStarted' }
  | { type: 'downloadEnded' }
  | { type: 'copyConfirmed' }
  | { type: 'copyConfirmationEnded' }
  | { type: 'storageFailed' }
  | { type: 'storageSucceeded' };

export const initialWatchlistScreenState: WatchlistScreenState = {
  status: 'loading',
  entries: [],
  related: [],
  sharingUrl: '',
  download: 'idle',
  copyConfirmed: false,
  storageFailed: false,
};

/** The screen's state machine; pure, so every transition is tested without a browser. */
export function watchlistScreenReducer(state: WatchlistScreenState, action: WatchlistScreenAction): WatchlistScreenState {
  switch (action.type) {
    case 'loadSucceeded': {
      const { articles, relatedArticles, sharingUrl } = action.storedWatchlist;
      return { ...state, status: 'loaded', entries: Object.values(articles), related: relatedArticles, sharingUrl };
    }
    case 'loadFailed':
      // Spec point 8: a failed load shows the screen as loaded and empty.
      return { ...state, status: 'loaded', entries: [], related: [], sharingUrl: '', copyConfirmed: false };
    case 'articleDropped': {
      const entries = state.entries.filter((entry) => entry.id !== action.id);
      return entries.length === state.entries.length ? state : { ...state, entries };
    }
    case 'downloadStarted':
      return state.download === 'downloading' ? state : { ...state, download: 'downloading' };
    case 'downloadEnded':
      return state.download === 'idle' ? state : { ...state, download: 'idle' };
    case 'copyConfirmed':
      return { ...state, copyConfirmed: true };
    case 'copyConfirmationEnded':
      return state.copyConfirmed ? { ...state, copyConfirmed: false } : state;
    case 'storageFailed':
      return { ...state, storageFailed: true };
    case 'storageSucceeded':
      return state.storageFailed ? { ...state, storageFailed: false } : state;
  }
}
