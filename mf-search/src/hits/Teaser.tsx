import { HighlightedText } from '../highlight/HighlightedText.js';
import type { ArticleHit } from './articleHit.js';
import { teaserHeadline, teaserIntro, teaserMeta } from './teaserFields.js';

export interface TeaserProps {
  /** The hit to show. */
  hit: ArticleHit;
  /** Called when the visitor opens the article (insights click event). Default none. */
  onOpen?: (hit: ArticleHit) => void;
}

/**
 * One search result: a link to the hit's url with image, optional subline, highlighted headline
 * (or title), intro, topic tags, "date, reading time" and the call-to-action.
 */
export function Teaser({ hit, onOpen }: TeaserProps) {
  const meta = teaserMeta(hit.date, hit.readingTime);
  const topics = Array.isArray(hit.topic) ? hit.topic : [];
  return (
    <article className="search-teaser" data-object-id={hit.objectID}>
      <a className="search-teaser__link" href={hit.url ?? '#'} onClick={() => onOpen?.(hit)}>
        {hit.image ? <img className="search-teaser__image" src={hit.image} alt="" loading="lazy" /> : null}
        <div className="search-teaser__body">
          {hit.subline ? <p className="search-teaser__subline">{hit.subline}</p> : null}
          <h2 className="search-teaser__headline">
            <HighlightedText segments={teaserHeadline(hit)} />
          </h2>
          <p className="search-teaser__intro">
            <HighlightedText segments={teaserIntro(hit)} />
          </p>
          {topics.length > 0 ? (
            <ul className="search-teaser__tags" aria-label="Topics">
              {topics.map((topic) => (
                <li key={topic} className="search-teaser__tag">
                  {topic}
                </li>
              ))}
            </ul>
          ) : null}
          {meta ? <p className="search-teaser__meta">{meta}</p> : null}
          {hit.cta ? (
            <span className="search-teaser__cta button">
              {hit.cta}
            </span>
          ) : null}
        </div>
      </a>
    </article>
  );
}
