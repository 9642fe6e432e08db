import type { PageConfig } from 'contracts';
import { Island } from './Island.js';

/** The watchlist screen; the list lives in the browser, so the remote renders it. */
export function WatchlistPage({ config }: { config: PageConfig }) {
  return (
    <section className="watchlist-page" aria-labelledby="watchlist-title">
      <h1 id="watchlist-title">{config.i18n.watchlistHeadline}</h1>
      <Island name="mf-watchlist/WatchlistScreen">
        <p className="watchlist-page__fallback" role="status">
          {config.i18n.loading}
        </p>
        <noscript>
          <p>Your watchlist is kept in this browser. Please turn on JavaScript to see it.</p>
        </noscript>
      </Island>
    </section>
  );
}
