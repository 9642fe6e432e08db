import { renderToStaticMarkup } from 'react-dom/server';
import { ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, pageFragmentIslandMarker, type LocalWatchlist, type PageFragment, type Teaser } from 'contracts';

/** The remote module that adds a shared list to the visitor's own watchlist. */
export const SHARED_WATCHLIST_IMPORT_ISLAND = 'mf-watchlist/SharedWatchlistImport';

/** What the shared-watchlist page shows. */
export interface SharedWatchlistPageProps {
  /** Teasers of the shared articles the content store still knows, in shared order. */
  teasers: Teaser[];
  /** The same articles as a local-watchlist map: the import island's props. */
  importable: LocalWatchlist['articles'];
}

function SharedWatchlistContent({ teasers, importProps }: { teasers: Teaser[]; importProps: Record<string, unknown> }) {
  return (
    <section className="shared-watchlist" aria-labelledby="shared-watchlist-title">
      <h1 id="shared-watchlist-title">Shared watchlist</h1>
      {teasers.length === 0 ? (
        <p className="shared-watchlist__empty">The articles of this watchlist are no longer available.</p>
      ) : (
        <>
          <p className="shared-watchlist__intro">{teasers.length === 1 ? 'Someone shared 1 article with you.' : `Someone shared ${teasers.length} articles with you.`}</p>
          <div
            className="island shared-watchlist__import"
            {...{ [ISLAND_ATTRIBUTE]: SHARED_WATCHLIST_IMPORT_ISLAND, [ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(importProps) }}
            dangerouslySetInnerHTML={{ __html: pageFragmentIslandMarker(0) }}
          />
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
                  <ul className="tags" aria-label="Topics">
                    {teaser.tags.map((tag) => (
                      <li key={tag.title} className="tag">
                        {tag.title}
                      </li>
                    ))}
                  </ul>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * The shared-watchlist page's content as a `PageFragment` (contracts): the list read-only, and the
 * `mf-watchlist/SharedWatchlistImport` island that adds its articles to the visitor's own watchlist
 * (a browser-only list, so it needs JavaScript: its placeholder says so). The shell wraps it in the
 * site layout and renders the island with the remote's server build.
 */
export function sharedWatchlistFragment({ teasers, importable }: SharedWatchlistPageProps): PageFragment {
  const importProps = { articles: importable };
  const placeholderHtml = renderToStaticMarkup(
    <p className="shared-watchlist__fallback">Adding these articles to your own watchlist needs JavaScript, because your watchlist is kept in your browser.</p>,
  );
  return {
    title: 'Shared watchlist',
    pageClass: 'page-shared-watchlist',
    html: renderToStaticMarkup(<SharedWatchlistContent teasers={teasers} importProps={importProps} />),
    islands: teasers.length === 0 ? [] : [{ name: SHARED_WATCHLIST_IMPORT_ISLAND, props: importProps, placeholderHtml }],
  };
}
