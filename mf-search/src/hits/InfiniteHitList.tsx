import { useContext, useEffect, useRef, useState } from 'react';
import { useInfiniteHits, useInstantSearch } from 'react-instantsearch';
import type { SearchHit } from 'contracts';
import { HitListEnvironmentContext } from './hitListEnvironment.js';
import { LoadMore } from './LoadMore.js';
import { createPageSessionHitsCache } from './pageSessionHitsCache.js';
import { Teaser } from './Teaser.js';

export interface InfiniteHitListProps {
  /** "viewing X of Y" template (`i18n.viewing`). */
  viewingLabel: string;
  /** Load-more button text (`i18n.loadMore`). */
  loadMoreLabel: string;
  /** "Show previous" text, offered when the list starts past page one. Default `Show previous`. */
  showPreviousLabel?: string;
  /**
   * A search is on its way (the list's status is loading or stalled). A load-more click meanwhile
   * is kept and carried out once it answered. Default `false`.
   */
  busy?: boolean;
}

/**
 * Hits accumulating page by page. Loaded pages are saved to session storage when the page is
 * left, so reload, back and forward show every page again. Opening a teaser sends an insights click event (sent only when
 * the insights middleware is active, i.e. after consent).
 */
export function InfiniteHitList({ viewingLabel, loadMoreLabel, showPreviousLabel = 'Show previous', busy = false }: InfiniteHitListProps) {
  const environment = useContext(HitListEnvironmentContext);
  // One cache for the list's lifetime (a memo may be recomputed; this state is not).
  const [cache] = useState(() => environment.createCache?.() ?? createPageSessionHitsCache());
  const { indexUiState, status } = useInstantSearch();
  useEffect(() => () => cache.dispose(), [cache]);
  const { items, results, isFirstPage, isLastPage, showMore, showPrevious, sendEvent } = useInfiniteHits<Partial<SearchHit>>({
    escapeHTML: false,
    cache,
  });
  const total = results?.nbHits ?? 0;
  // Room for the coming page from the click on, until its answer (a new results object) is
  // there: the link and "viewing X of Y" move at the click, however late the page arrives.
  const [awaitedAfter, setAwaitedAfter] = useState<unknown>(null);
  const comingHits =
    awaitedAfter !== null && awaitedAfter === results && status !== 'error' ? Math.max(0, Math.min(results?.hitsPerPage ?? 0, total - items.length)) : 0;
  const loadMore = () => {
    setAwaitedAfter(results ?? null);
    showMore();
  };
  // A click while a search is on its way is kept, not lost: that search may be one the visitor did
  // not ask for (the insights client arriving after consent searches again, to tag the answers).
  // Once it answered, the next page of the same search loads; a different search (a new query
  // typed meanwhile) drops the click, the list it was made on being gone.
  const searchKey = JSON.stringify({ ...indexUiState, page: undefined });
  const [keptClick, setKeptClick] = useState<string | null>(null);
  const requestMore = () => (busy ? setKeptClick(searchKey) : loadMore());
  // The latest render's loadMore (it reads that render's results).
  const latestLoadMore = useRef(loadMore);
  latestLoadMore.current = loadMore;
  useEffect(() => {
    if (keptClick === null || busy) return;
    setKeptClick(null);
    if (keptClick === searchKey && !isLastPage) latestLoadMore.current();
  }, [keptClick, busy, searchKey, isLastPage]);
  // The next page's address: load-more is a link, so it works before (or without) scripts.
  const nextPage = (indexUiState.page ?? 1) + 1;
  const nextHref = environment.pageHref?.(indexUiState, nextPage);
  return (
    <div className="khs-search-hits">
      {!isFirstPage ? (
        <button type="button" className="khs-search-hits__previous" onClick={showPrevious} disabled={busy}>
          {showPreviousLabel}
        </button>
      ) : null}
      <ol className="khs-search-hits__list">
        {items.map((hit) => (
          <li key={hit.objectID} className="khs-search-hits__item">
            <Teaser hit={hit} onOpen={(opened) => sendEvent('click', opened, 'Article Opened')} />
          </li>
        ))}
        {Array.from({ length: comingHits }, (_, index) => (
          <li key={`coming-${index}`} className="khs-search-hits__item khs-search-hits__placeholder" aria-hidden="true" />
        ))}
      </ol>
      {!isLastPage ? (
        <LoadMore loaded={items.length} total={total} viewingLabel={viewingLabel} loadMoreLabel={loadMoreLabel} onLoadMore={requestMore} busy={comingHits > 0 || keptClick !== null} href={nextHref} />
      ) : null}
    </div>
  );
}
