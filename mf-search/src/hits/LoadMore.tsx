import type { MouseEvent } from 'react';
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
  /** The page this button asked for is on its way (or asked for): it is disabled. Default `false`. */
  busy?: boolean;
  /**
   * Address of the next page (`?q=…&page=2`, which shows pages 1–2). With it, load-more is a
   * link that works without scripts; with scripts it loads the page in place. Default: a button.
   */
  href?: string;
}

/** A plain click (no modifier: those open the address in a new tab or window) loads in place. */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** Under the hits while more pages exist: "viewing X of Y", a progress bar and load more. */
export function LoadMore({ loaded, total, viewingLabel, loadMoreLabel, onLoadMore, busy = false, href }: LoadMoreProps) {
  const progress = hitListProgress(loaded, total);
  return (
    <div className="khs-search-load-more">
      <p className="khs-search-load-more__viewing">{formatViewing(viewingLabel, progress.loaded, progress.total)}</p>
      <progress className="khs-search-load-more__progress" max={progress.total} value={progress.loaded} aria-label={formatViewing(viewingLabel, progress.loaded, progress.total)} />
      {href ? (
        <a
          className="khs-search-load-more__button"
          href={href}
          aria-disabled={busy || undefined}
          onClick={(event) => {
            if (!isPlainClick(event)) return;
            event.preventDefault();
            if (!busy) onLoadMore();
          }}
        >
          {loadMoreLabel}
        </a>
      ) : (
        <button type="button" className="khs-search-load-more__button" onClick={onLoadMore} disabled={busy}>
          {loadMoreLabel}
        </button>
      )}
    </div>
  );
}
