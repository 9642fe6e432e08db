import type { LocalWatchlist } from './entities.js';

/** Consent a visitor gave in the shell's consent panel. */
export interface ConsentState {
  /** Click/view/conversion events may be sent to the insights service. */
  insights: boolean;
  /** Site-search queries may be sent to the analytics tracker. */
  tracking: boolean;
}

/**
 * Events on the page bus, named by what happened. Payloads are plain data and evolve additively
 * (a minor version may add optional fields, never remove or retype one), so remotes built against
 * another minor version of contracts still understand them: listeners receive payloads read by
 * `readSiteEvent` (extra fields of a newer producer dropped, an older producer's missing optional
 * fields filled with their defaults from `SITE_EVENT_DEFAULTS`).
 */
export interface SiteEvents {
  /** The local watchlist changed; carries the whole list after the change. */
  'watchlist-updated': { watchlist: LocalWatchlist; count: number };
  /** An article was toggled on the watchlist. Fires on removal too (`added: false`). */
  'watchlist-added': {
    id: string;
    title: string;
    added: boolean;
    /**
     * The island that toggled it, e.g. `mf-watchlist/WatchlistButton` (since 1.2.0). Listeners get
     * `''` from producers built before it.
     */
    source?: string;
  };
  /** A visitor submitted a search query. */
  'search-submitted': { query: string; hitCount: number };
  /** Something on the page asked for the consent control panel (e.g. a cookie-banner link). */
  'consent-panel-requested': { source: string };
  /** The visitor's consent changed (or was read at start-up). */
  'consent-changed': ConsentState;
}

export type SiteEventName = keyof SiteEvents;

/** Defaults of optional payload fields, filled in for listeners when a producer left them out. */
export const SITE_EVENT_DEFAULTS = {
  'watchlist-added': { source: '' },
} as const satisfies { [K in SiteEventName]?: Partial<SiteEvents[K]> };

type Widen<T> = T extends string ? string : T extends number ? number : T extends boolean ? boolean : T;
type DefaultedFields<K extends SiteEventName> = K extends keyof typeof SITE_EVENT_DEFAULTS
  ? { [F in keyof (typeof SITE_EVENT_DEFAULTS)[K]]: Widen<(typeof SITE_EVENT_DEFAULTS)[K][F]> }
  : unknown;

/** What a listener receives: the payload with every defaulted optional field present. */
export type ReceivedSiteEvent<K extends SiteEventName> = SiteEvents[K] & DefaultedFields<K>;
