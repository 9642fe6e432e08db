import type { LocalWatchlist } from './entities.js';

/** Consent a visitor gave in the shell's consent panel. */
export interface ConsentState {
  /** Click/view/conversion events may be sent to the insights service. */
  insights: boolean;
  /** Site-search queries may be sent to the analytics tracker. */
  tracking: boolean;
}

/**
 * Events on the page bus, named by what happened. Payloads are plain data so that remotes
 * built against another minor version of contracts still understand them.
 */
export interface SiteEvents {
  /** The local watchlist changed; carries the whole list after the change. */
  'watchlist-updated': { watchlist: LocalWatchlist; count: number };
  /** An article was toggled on the watchlist. Fires on removal too (`added: false`). */
  'watchlist-added': { id: string; title: string; added: boolean };
  /** A visitor submitted a search query. */
  'search-submitted': { query: string; hitCount: number };
  /** Something on the page asked for the consent control panel (e.g. a cookie-banner link). */
  'consent-panel-requested': { source: string };
  /** The visitor's consent changed (or was read at start-up). */
  'consent-changed': ConsentState;
}

export type SiteEventName = keyof SiteEvents;
