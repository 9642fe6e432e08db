import type { FacetDefinition, SearchI18n } from './entities.js';

/** One node of a Typesense(-protocol) search cluster, as the `typesense` client names it. */
export interface SearchNode {
  host: string;
  port: number;
  protocol: 'http' | 'https';
  /** Path prefix in front of the API, e.g. behind a proxy. Default `''`. */
  path?: string;
}

/**
 * Where and how the browser reaches the search server. `host`/`port`/`protocol` alone mean one
 * node. A cluster adds `nodes` (and optionally `nearestNode`); `host`/`port`/`protocol` then
 * repeat the first of `nodes`, so a remote built before 1.3.0 still searches one of them.
 */
export interface SearchServerConfig {
  /** Search-only API key (never the admin key). */
  apiKey: string;
  host: string;
  port: number;
  /** Default `http`. */
  protocol: 'http' | 'https';
  /** Default `DEFAULT_SEARCH_INDEX_NAME`. */
  indexName: string;
  /**
   * Since 1.3.0. Every node of a cluster; the client spreads requests over them and retries the
   * next node when one fails. Default: the one node `host`/`port`/`protocol`.
   */
  nodes?: SearchNode[];
  /**
   * Since 1.3.0. A load-balanced endpoint tried first (Typesense Cloud's nearest-node address),
   * falling back to `nodes` when it fails. Default none.
   */
  nearestNode?: SearchNode;
}

/** Search configuration of the specification, point 3. */
export interface SearchConfiguration {
  /** Comma-separated fields to search, in weight order. */
  queryBy: string;
  /** Hits per page. */
  limit: number;
  /** Typesense `sort_by`, empty for relevance. */
  sortBy: string;
  server: SearchServerConfig;
  facets: FacetDefinition[];
  /** Keep results hidden until a query exists. */
  hideResults: boolean;
}

/**
 * Environment variable that switches ranking by visitors' behaviour: `on`, or `off` (the default).
 * Read by the shell (the site's search sort, {@link searchSortBy}) and by the search team's service
 * (which writes each article's `popularity`), so one setting switches both.
 */
export const POPULARITY_SWITCH_ENV = 'SEARCH_POPULARITY';

/** The site's search sort with popularity on: text match first, then the articles' `popularity` field. */
export const POPULARITY_SORT_BY = '_text_match:desc,popularity:desc';

/**
 * Whether ranking by popularity is on, from the environment's {@link POPULARITY_SWITCH_ENV}.
 * @throws Error when the value is set and neither `on` nor `off`.
 */
export function popularitySwitchFromEnv(env: Record<string, string | undefined>): boolean {
  const value = env[POPULARITY_SWITCH_ENV]?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'off') return false;
  if (value === 'on') return true;
  throw new Error(`${POPULARITY_SWITCH_ENV} must be on or off, got "${env[POPULARITY_SWITCH_ENV]}"`);
}

/**
 * The one place that decides the site's search sort (`SearchConfiguration.sortBy`): relevance
 * alone (`''`, Typesense's default) or, with popularity on, {@link POPULARITY_SORT_BY}.
 */
export function searchSortBy(popularity: boolean): string {
  return popularity ? POPULARITY_SORT_BY : DEFAULT_SEARCH_SETTINGS.sortBy;
}

/** A federated remote: its name and the URL of its `mf-manifest.json`. */
export interface RemoteDefinition {
  name: string;
  entry: string;
}

/** Search settings every page uses unless a shell configures others. */
export const DEFAULT_SEARCH_SETTINGS: Omit<SearchConfiguration, 'server'> = {
  queryBy: 'headline,title,intro,content',
  limit: 20,
  sortBy: '',
  facets: [{ attribute: 'topic', label: 'Topic' }],
  hideResults: false,
};

/** URLs of the product's own calls (specification point 7). */
export interface CallUrls {
  csrfToken: string;
  watchlist: string;
  download: string;
  /** Survey results; `{formHandle}` is substituted. */
  surveyResults: string;
  /** Survey submission; `{formHandle}` is substituted. */
  surveySubmit: string;
  /**
   * The survey shown under an article, `{articleId}` substituted: what the survey island reads in
   * the browser when its server render failed (since 1.8.0; a remote reading a shell's config from
   * before falls back to `DEFAULT_CALL_URLS.articleSurvey`).
   */
  articleSurvey: string;
  /** Insights collector endpoint. */
  insights: string;
  /**
   * Site-search tracking: one submitted search (query, hit count, filters, page) to the search
   * team's service, under the `tracking` consent (since 1.5.0; a remote reading a shell's config
   * from before falls back to `DEFAULT_CALL_URLS.siteSearch`).
   */
  siteSearch: string;
  /** Search page of the site (header search box submits here). */
  searchPage: string;
  /** Watchlist page of the site. */
  watchlistPage: string;
}

/**
 * The shell's call URLs (the first and the survey-results one are fixed by the specification).
 * A shell may serve them elsewhere and say so in the page config; remotes always read the config.
 */
export const DEFAULT_CALL_URLS: CallUrls = {
  csrfToken: '/actions/blitz/csrf/token',
  watchlist: '/api/watchlist',
  download: '/api/watchlist/pdf',
  surveyResults: '/api/survey-results/{formHandle}',
  surveySubmit: '/api/surveys/{formHandle}/submissions',
  articleSurvey: '/api/article-surveys/{articleId}',
  insights: '/api/insights/events',
  siteSearch: '/api/insights/searches',
  searchPage: '/search',
  watchlistPage: '/watchlist',
};

/**
 * The route pattern (`:name` parameters, as Fastify, Express and path-to-regexp write them) of a
 * call URL template (`{name}` placeholders): the servers register `callRoutePattern(DEFAULT_CALL_URLS.x)`,
 * so a call's path is written once, here.
 */
export function callRoutePattern(template: string): string {
  return template.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, ':$1');
}

/** i18n texts shared by the islands. */
export interface I18nTexts extends SearchI18n {
  watchlistAdd: string;
  watchlistRemove: string;
  watchlistLink: string;
  watchlistHeadline: string;
  watchlistEmpty: string;
  watchlistRelated: string;
  watchlistShare: string;
  watchlistCopy: string;
  watchlistCopied: string;
  watchlistDownload: string;
  watchlistStorageFailed: string;
  loading: string;
  searchPlaceholder: string;
  searchLabel: string;
  surveySubmit: string;
  filter: string;
  noResults: string;
}

/** Everything the server embeds in a page for its islands (as escaped JSON). */
export interface PageConfig {
  siteName: string;
  remotes: RemoteDefinition[];
  search: SearchConfiguration;
  calls: CallUrls;
  i18n: I18nTexts;
  /** Milliseconds the shell waits for a remote before keeping its fallback. */
  remoteTimeoutMs: number;
}
