import type { Teaser } from 'contracts';
import { BookmarkIcon } from './BookmarkIcon.js';

export interface WatchlistTeaserCardProps {
  teaser: Teaser;
  /** `remove` for a saved article, `add` for a related one. */
  action: 'add' | 'remove';
  onAction(teaser: Teaser): void;
  /** Heading level of the title. Default 2. */
  headingLevel?: 2 | 3;
}

/**
 * One article teaser with its watchlist button. The button's accessible name starts with its
 * visible label and ends with the article title ("Remove from watchlist: Giving feedback…"),
 * so a list of them stays clear.
 */
export function WatchlistTeaserCard({ teaser, action, onAction, headingLevel = 2 }: WatchlistTeaserCardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const label = action === 'remove' ? teaser.labels.remove : teaser.labels.add;
  return (
    <article className="khs-watchlist-teaser" data-article-id={teaser.id}>
      <img
        className="khs-watchlist-teaser__image"
        src={teaser.image.src}
        srcSet={teaser.image.srcSet}
        alt={teaser.image.alt}
        width={640}
        height={360}
        loading="lazy"
      />
      <div className="khs-watchlist-teaser__body">
        {teaser.overline ? <p className="khs-watchlist-teaser__subline">{teaser.overline}</p> : null}
        <Heading className="khs-watchlist-teaser__title">
          <a href={teaser.href}>{teaser.title}</a>
        </Heading>
        <p className="khs-watchlist-teaser__intro">{teaser.intro}</p>
        {teaser.tags.length > 0 ? (
          <ul className="khs-watchlist-tags" aria-label="Topics">
            {teaser.tags.map((tag) => (
              <li key={tag.title} className="khs-watchlist-tag">
                {tag.title}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="khs-watchlist-teaser__actions">
          <a className="khs-watchlist-teaser__cta" href={teaser.href}>
            {teaser.cta}
          </a>
          <button
            type="button"
            className="khs-watchlist-button__toggle"
            aria-pressed={action === 'remove'}
            aria-label={`${label}: ${teaser.title}`}
            onClick={() => onAction(teaser)}
          >
            <BookmarkIcon size={16} />
            <span>{label}</span>
          </button>
        </div>
      </div>
    </article>
  );
}
