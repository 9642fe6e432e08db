import { createContext } from 'react';
import type { InfiniteHitsCache } from 'instantsearch.js/es/connectors/infinite-hits/connectInfiniteHits.js';
import type { IndexUiState } from 'instantsearch.js';

/** An infinite-hits cache the list can release when it unmounts. */
export type DisposableHitsCache = InfiniteHitsCache & { dispose(): void };

/** What the hit list needs from where it runs (browser or server render). */
export interface HitListEnvironment {
  /** Creates the list's page cache. Default: the page-session cache (browser only). */
  createCache?: () => DisposableHitsCache;
  /** Address of the next page of results, so load-more is a real link (works without scripts). */
  pageHref?: (indexUiState: IndexUiState, page: number) => string;
}

export const HitListEnvironmentContext = createContext<HitListEnvironment>({});
