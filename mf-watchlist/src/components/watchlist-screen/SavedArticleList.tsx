import type { Teaser } from 'contracts';
import { WatchlistTeaserCard } from './WatchlistTeaserCard.js';

export interface SavedArticleListProps {
  entries: Teaser[];
  /** Accessible name of the list, e.g. the page headline. */
  label: string;
  onRemove(teaser: Teaser): void;
}

/** The saved articles, each with its remove button. */
export function SavedArticleList({ entries, label, onRemove }: SavedArticleListProps) {
  return (
    <ul className="khs-watchlist-grid khs-watchlist-screen__list" aria-label={label}>
      {entries.map((teaser) => (
        <li key={teaser.id}>
          <WatchlistTeaserCard teaser={teaser} action="remove" onAction={onRemove} />
        </li>
      ))}
    </ul>
  );
}
