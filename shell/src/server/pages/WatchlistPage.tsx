import type { PageConfig } from 'contracts';
import { Island } from './Island.js';

/** The watchlist screen, rendered by the watchlist remote (its loading state on the server: the list lives in the browser). */
export function WatchlistPage({ config }: { config: PageConfig }) {
  return (
    <section className="watchlist-page" aria-labelledby="watchlist-title">
      <h1 id="watchlist-title">{config.i18n.watchlistHeadline}</h1>
      <Island name="mf-watchlist/WatchlistScreen">
        <noscript>
          <p>Your watchlist is kept in this browser. Please turn on JavaScript to see it.</p>
        </noscript>
      </Island>
    </section>
  );
}
