import type { LocalWatchlist, Teaser } from 'contracts';
import { Island } from '../pages/Island.js';
import { TopicTags } from '../pages/TopicTags.js';

export interface SharedWatchlistPageProps {
  /** Teasers of the shared articles the content store still knows, in shared order. */
  teasers: Teaser[];
  /** The same articles as a local-watchlist map: the import island's props. */
  importable: LocalWatchlist['articles'];
}

/**
 * A watchlist someone shared, read-only, with the `mf-watchlist/SharedWatchlistImport` island
 * that adds its articles to the visitor's own watchlist (a browser-only list, so it needs JS).
 */
export function SharedWatchlistPage({ teasers, importable }: SharedWatchlistPageProps) {
  return (
    <section className="shared-watchlist" aria-labelledby="shared-watchlist-title">
      <h1 id="shared-watchlist-title">Shared watchlist</h1>
      {teasers.length === 0 ? (
        <p className="shared-watchlist__empty">The articles of this watchlist are no longer available.</p>
      ) : (
        <>
          <p className="shared-watchlist__intro">
            {teasers.length === 1 ? 'Someone shared 1 article with you.' : `Someone shared ${teasers.length} articles with you.`}
          </p>
          <Island name="mf-watchlist/SharedWatchlistImport" props={{ articles: importable }} className="shared-watchlist__import">
            <p className="shared-watchlist__fallback">
              Adding these articles to your own watchlist needs JavaScript, because your watchlist is kept in your browser.
            </p>
          </Island>
          {/* Inline reset: the site stylesheet styles .teaser-grid for <div>s, this one is a list. */}
          <ul className="teaser-grid shared-watchlist__list" aria-label="Shared articles" style={{ listStyle: 'none', padding: 0 }}>
            {teasers.map((teaser) => (
              <li key={teaser.id} className="teaser">
                <img className="teaser__image" src={teaser.image.src} srcSet={teaser.image.srcSet} alt={teaser.image.alt} width={640} height={360} loading="lazy" />
                <div className="teaser__body">
                  {teaser.overline ? <p className="teaser__subline">{teaser.overline}</p> : null}
                  <h2 className="teaser__title">
                    <a href={teaser.href}>{teaser.title}</a>
                  </h2>
                  <p className="teaser__intro">{teaser.intro}</p>
                  <TopicTags topics={teaser.tags.map((tag) => tag.title)} />
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
