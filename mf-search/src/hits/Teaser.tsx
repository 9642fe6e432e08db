import { isSafeHitUrl } from 'contracts';
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
 * (or title), intro, topic tags, "date, reading time" and the call-to-action. Only a relative or
 * http(s) `url` becomes a link and only such an `image` is shown (contracts `isSafeHitUrl`): a hit
 * with any other url (`javascript:`, `data:`, none) shows its text without link or call-to-action.
 */
export function Teaser({ hit, onOpen }: TeaserProps) {
  const meta = teaserMeta(hit.date, hit.readingTime);
  const topics = Array.isArray(hit.topic) ? hit.topic : [];
  const href = isSafeHitUrl(hit.url) && hit.url !== '' ? hit.url : undefined;
  const image = isSafeHitUrl(hit.image) && hit.image !== '' ? hit.image : undefined;
  const content = (
    <>
      {image ? <img className="khs-search-teaser__image" src={image} alt="" loading="lazy" /> : null}
      <div className="khs-search-teaser__body">
        {hit.subline ? <p className="khs-search-teaser__subline">{hit.subline}</p> : null}
        <h2 className="khs-search-teaser__headline">
          <HighlightedText segments={teaserHeadline(hit)} />
        </h2>
        <p className="khs-search-teaser__intro">
          <HighlightedText segments={teaserIntro(hit)} />
        </p>
        {topics.length > 0 ? (
          <ul className="khs-search-teaser__tags" aria-label="Topics">
            {topics.map((topic) => (
              <li key={topic} className="khs-search-teaser__tag">
                {topic}
              </li>
            ))}
          </ul>
        ) : null}
        {meta ? <p className="khs-search-teaser__meta">{meta}</p> : null}
        {hit.cta && href !== undefined ? <span className="khs-search-teaser__cta">{hit.cta}</span> : null}
      </div>
    </>
  );
  return (
    <article className="khs-search-teaser" data-object-id={hit.objectID}>
      {href !== undefined ? (
        <a className="khs-search-teaser__link" href={href} onClick={() => onOpen?.(hit)}>
          {content}
        </a>
      ) : (
        <div className="khs-search-teaser__unlinked">{content}</div>
      )}
    </article>
  );
}
