import type { WatchlistAddedDetails } from './connectWatchlist.js';

/** What a watchlist button adds to its `watchlist-added` events (the React component and the DOM binding alike). */
export const WATCHLIST_BUTTON_ADDED_DETAILS: WatchlistAddedDetails = { source: 'mf-watchlist/WatchlistButton' };
