/** Entity types of the product specification, point 3. */

/** A document of the search index (also the shape of an article in the content store). */
export interface SearchHit {
  id: string;
  headline: string;
  title: string;
  subline?: string;
  intro: string;
  content: string;
  /** Image URL (served by the shell); relative or http(s) (`isSafeHitUrl`). */
  image: string;
  /** Topic list; the search index facets on it. */
  topic: string[];
  /** Publication date as unix seconds (sortable in the index). */
  date: number;
  /** Site-relative URL of the article page; relative or http(s) (`isSafeHitUrl`). */
  url: string;
  /** Reading time in minutes. */
  readingTime: number;
  /** Call-to-action label. */
  cta: string;
}

/** i18n texts the search list needs. */
export interface SearchI18n {
  /** "viewing X of Y" template; `{count}` and `{total}` are substituted. */
  viewing: string;
  loadMore: string;
}

/** Search context of the list screen. */
export interface SearchContext {
  search: { resultsHidden: boolean };
  i18n: SearchI18n;
  resultsHidden: boolean;
  hideResults: boolean;
}

/** One saved entry of the local watchlist. */
export interface LocalWatchlistEntry {
  title: string;
}

/** The watchlist as kept in local storage under `WATCHLIST_STORAGE_KEY`. */
export interface LocalWatchlist {
  articles: Record<string, LocalWatchlistEntry>;
}

/** A teaser as the watchlist server returns it. */
export interface Teaser {
  id: string;
  overline: string;
  title: string;
  href: string;
  tags: { title: string }[];
  intro: string;
  image: { src: string; srcSet: string; alt: string };
  cta: string;
  labels: { add: string; remove: string };
}

/** Successful answer of the watchlist call. */
export interface StoredWatchlist {
  articles: Record<string, Teaser>;
  relatedArticles: Teaser[];
  sharingUrl: string;
}

/** Answer of the watchlist call: the resolved list, or an error. */
export type WatchlistResponse = { storedWatchlist: StoredWatchlist } | { error: string };

/** Request body of the watchlist and download calls. */
export interface WatchlistRequest {
  storedWatchlist: LocalWatchlist;
}

/** An autocomplete suggestion. */
export interface SearchSuggestion {
  title: string;
}

/** A facet shown as a checkbox group. */
export interface FacetDefinition {
  /** Index field to facet on (required). */
  attribute: string;
  /** Group heading. */
  label: string;
  /** How checked values combine. Default `or`. */
  operator?: 'and' | 'or';
  /** Options shown at first. Default `FACET_LIMIT`. */
  limit?: number;
  /** Options shown after "show more"; must exceed `limit`. Default `FACET_SHOW_MORE_LIMIT`. */
  showMoreLimit?: number;
}

/** One answer of a survey. Position is 1-based and stable. */
export interface SurveyAnswer {
  position: number;
  label: string;
}

/** A survey as defined in the content store. */
export interface Survey {
  formHandle: string;
  question: string;
  answers: SurveyAnswer[];
}

/** Results of a survey: answer position (as a string key) to an integer percentage. */
export type SurveyResults = Record<string, number>;
