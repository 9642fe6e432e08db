import { DEFAULT_CALL_URLS, DEFAULT_SEARCH_SETTINGS, type PageConfig } from './config.js';
import { DEFAULT_SEARCH_INDEX_NAME } from './constants.js';

/**
 * A complete, valid page config for a remote's standalone page and for tests. The shell builds
 * the real one from its environment; this one documents the shape by example.
 */
export function examplePageConfig(overrides: Partial<PageConfig> = {}): PageConfig {
  return {
    siteName: 'KHS Competence',
    remotes: [],
    remoteTimeoutMs: 8000,
    search: {
      ...DEFAULT_SEARCH_SETTINGS,
      server: {
        apiKey: 'khs-search-dev-key',
        host: '127.0.0.1',
        port: 8108,
        protocol: 'http',
        indexName: DEFAULT_SEARCH_INDEX_NAME,
      },
    },
    calls: { ...DEFAULT_CALL_URLS },
    i18n: {
      viewing: 'Viewing {count} of {total} articles',
      loadMore: 'Load more',
      watchlistAdd: 'Add to watchlist',
      watchlistRemove: 'Remove from watchlist',
      watchlistLink: 'Watchlist',
      watchlistHeadline: 'Your watchlist',
      watchlistEmpty: 'You have not saved any articles yet.',
      watchlistRelated: 'Related articles',
      watchlistShare: 'Share your watchlist',
      watchlistCopy: 'Copy link',
      watchlistCopied: 'Link copied',
      watchlistDownload: 'Download as PDF',
      watchlistStorageFailed: 'Your browser did not let us save the watchlist.',
      loading: 'Loading…',
      searchPlaceholder: 'Search articles',
      searchLabel: 'Search',
      surveySubmit: 'Vote',
      filter: 'Filter',
      noResults: 'No articles match your search.',
    },
    ...overrides,
  };
}
