import { formatViewing, hitListProgress } from './viewingProgress.js';

export interface LoadMoreProps {
  /** Hits loaded so far. */
  loaded: number;
  /** All hits of the search. */
  total: number;
  /** "viewing X of Y" template with `{count}` and `{total}` (`i18n.viewing`). */
  viewingLabel: string;
  /** Button text (`i18n.loadMore`). */
  loadMoreLabel: string;
  /** Loads the next page. */
  onLoadMore: () => void;
  /** A page is on its way: the button is disabled. Default `false`. */
  busy?: boolean;
}

/** Under the hits while more pages exist: "viewing X of Y", a progress bar and load more. */
export function LoadMore({ loaded, total, viewingLabel, loadMoreLabel, onLoadMore, busy = false }: LoadMoreProps) {
  const progress = hitListProgress(loaded, total);
  return (
    <div className="khs-search-load-more">
      <p className="khs-search-load-more__viewing">{formatViewing(viewingLabel, progress.loaded, progress.total)}</p>
      <progress className="khs-search-load-more__progress" max={progress.total} value={progress.loaded} aria-label={formatViewing(viewingLabel, progress.loaded, progress.total)} />
      <button type="button" className="khs-search-load-more__button" onClick={onLoadMore} disabled={busy}>
        {loadMoreLabel}
      </button>
    </div>
  );
}
