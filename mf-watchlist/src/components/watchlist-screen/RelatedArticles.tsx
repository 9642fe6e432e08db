import type { Teaser } from 'contracts';
import { WatchlistTeaserCard } from './WatchlistTeaserCard.js';

export interface RelatedArticlesProps {
  related: Teaser[];
  /** Section heading, e.g. "Related articles". */
  headline: string;
  onAdd(teaser: Teaser): void;
}

/** Articles related to the saved ones, each with an add button. Renders nothing when empty. */
export function RelatedArticles({ related, headline, onAdd }: RelatedArticlesProps) {
  if (related.length === 0) return null;
  return (
    <section className="khs-watchlist-screen__related" aria-labelledby="watchlist-related-title">
      <h2 id="watchlist-related-title">{headline}</h2>
      <ul className="khs-watchlist-grid">
        {related.map((teaser) => (
          <li key={teaser.id}>
            <WatchlistTeaserCard teaser={teaser} action="add" onAction={onAdd} headingLevel={3} />
          </li>
        ))}
      </ul>
    </section>
  );
}
