import type { SearchClient } from 'instantsearch.js';
import { addAbsolutePosition } from 'instantsearch.js/es/lib/utils/hits-absolute-position.js';
import { addQueryID } from 'instantsearch.js/es/lib/utils/hits-query-id.js';
import type { DisposableHitsCache } from '../hits/hitListEnvironment.js';
import { createMemoryHitsCache, type HitsCacheEntry } from '../hits/memoryHitsCache.js';

/** Hits of the pages before the address's page, by 0-based page, as the infinite list caches them. */
export type EarlierPages = Record<number, unknown[]>;

/** One request of InstantSearch's `search(requests)`. */
interface ListRequest {
  indexName: string;
  params?: { page?: number; hitsPerPage?: number; facets?: string[] | string } & Record<string, unknown>;
}

/** One answer of `search(requests)`, as the adapter builds it. */
interface ListAnswer {
  hits: unknown[];
  page: number;
  hitsPerPage: number;
  queryID?: string;
}

/** A search client for one server render plus what it learned of the pages before the shown one. */
export interface EarlierPagesSearch {
  searchClient: SearchClient;
  /** The pages before `lastPage` (0-based keys), once the render's search has answered; `null` before or when there are none. */
  earlierPages(): EarlierPages | null;
}

/**
 * Wraps the list's search client for one server render of `?page=N` (`lastPage` = N, 1-based):
 * the render's hits search for page N carries the searches for pages 1…N-1 in the same call (one
 * `multi_search` request: the adapter batches a call's requests), without facets (only their hits
 * are shown). InstantSearch still sees only its own answers; the earlier pages' hits are kept,
 * positioned as the infinite-hits connector positions them (`__position`, `__queryID`), for the
 * list's cache (`createSeededHitsCache`). So the render needs one search call and one
 * `getServerState`, not one per page.
 * @param client  The list's search client.
 * @param lastPage  The address's page (1-based); with 1 the client is returned unchanged.
 */
export function searchWithEarlierPages(client: SearchClient, lastPage: number): EarlierPagesSearch {
  const lastPageIndex = lastPage - 1;
  let earlier: EarlierPages | null = null;
  if (lastPageIndex < 1) return { searchClient: client, earlierPages: () => null };
  const search = (async (requests: ListRequest[]) => {
    const hitsRequests = requests.filter(isHitsRequestFor(lastPageIndex));
    if (earlier || hitsRequests.length !== 1) return client.search(requests as never);
    const earlierRequests = earlierPageRequests(hitsRequests[0]!, lastPageIndex);
    const answer = (await client.search([...requests, ...earlierRequests] as never)) as unknown as { results: ListAnswer[] };
    const own = answer.results.slice(0, requests.length);
    earlier = Object.fromEntries(answer.results.slice(requests.length).map((result, page) => [page, positionedHits(result)]));
    return { ...answer, results: own };
  }) as SearchClient['search'];
  return { searchClient: { ...client, search } as SearchClient, earlierPages: () => earlier };
}

/** The request that fetches the hits of page `pageIndex` (the facet-only requests ask for none). */
function isHitsRequestFor(pageIndex: number) {
  return (request: ListRequest): boolean => request.params?.page === pageIndex && request.params.hitsPerPage !== 0;
}

/** Pages 0…lastPageIndex-1 of the same search, hits only. */
function earlierPageRequests(request: ListRequest, lastPageIndex: number): ListRequest[] {
  const { facets: _facets, ...params } = request.params ?? {};
  return Array.from({ length: lastPageIndex }, (_, page) => ({ ...request, params: { ...params, page } }));
}

/** A page's hits as `connectInfiniteHits` stores them (the list runs with `escapeHTML: false` and no `transformItems`). */
function positionedHits(result: ListAnswer): unknown[] {
  return addQueryID(addAbsolutePosition(result.hits as never[], result.page, result.hitsPerPage), result.queryID);
}

/**
 * The server render's infinite-hits cache: empty until the render's search brings the earlier
 * pages, then holding them for the render's search state (the first state the list reads it
 * with; one render shows one state), so the list shows pages 1…N and hands them to the browser.
 * @param earlierPages  Read at each cache read (`EarlierPagesSearch.earlierPages`).
 */
export function createSeededHitsCache(earlierPages: () => EarlierPages | null): DisposableHitsCache & { entry(): HitsCacheEntry | null } {
  const cache = createMemoryHitsCache();
  return {
    ...cache,
    read(options) {
      const seed = earlierPages();
      if (!cache.entry() && seed) cache.write({ state: options.state, hits: { ...seed } as never });
      return cache.read(options);
    },
  };
}
