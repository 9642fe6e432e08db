import { useState } from 'react';
import { useIslandReady } from '@khs/react-island/ready';
import type { LocalWatchlist, PageBus } from 'contracts';
import { readWatchlist, toggleWatchlistArticle, watchlistCount } from '../../storage/watchlistStorage.js';
import '../../styles/watchlist.css';

/** Texts of the import action. English defaults until the page config carries them. */
export interface SharedWatchlistImportTexts {
  /** Button text; `{count}` is the number of shared articles. */
  importLabel: string;
  /** Button text when one article is shared. */
  importOneLabel: string;
  /** After an import; `{count}` is the number of articles added. */
  imported: string;
  /** After an import that added one article. */
  importedOne: string;
  /** When every shared article was already saved. */
  alreadySaved: string;
  /** When local storage refused (some may have been added before). */
  failed: string;
  /** Link text to the visitor's own watchlist. */
  openWatchlist: string;
}

export const DEFAULT_IMPORT_TEXTS: SharedWatchlistImportTexts = {
  importLabel: 'Add these {count} articles to my watchlist',
  importOneLabel: 'Add this article to my watchlist',
  imported: 'Added {count} articles to your watchlist.',
  importedOne: 'Added 1 article to your watchlist.',
  alreadySaved: 'All these articles are already on your watchlist.',
  failed: 'Your browser did not let us save the watchlist.',
  openWatchlist: 'Open my watchlist',
};

export interface SharedWatchlistImportProps {
  /** The shared articles (id to title). */
  articles: LocalWatchlist['articles'];
  bus: PageBus;
  /** URL of the visitor's watchlist page. */
  watchlistHref: string;
  /** Default `DEFAULT_IMPORT_TEXTS`. */
  texts?: SharedWatchlistImportTexts;
  /** Where a storage failure is logged. Default console. */
  logger?: Pick<Console, 'error'>;
}

type Outcome = { kind: 'imported'; count: number } | { kind: 'alreadySaved' } | { kind: 'failed' };

/**
 * Adds a shared watchlist's articles to the visitor's own (local) one, only those not saved
 * yet, announcing each addition on the bus like a watchlist button does.
 */
export function SharedWatchlistImport({
  articles,
  bus,
  watchlistHref,
  texts = DEFAULT_IMPORT_TEXTS,
  logger = console,
}: SharedWatchlistImportProps) {
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const ready = useIslandReady();
  const total = Object.keys(articles).length;

  const importArticles = () => {
    let added = 0;
    for (const [id, { title }] of Object.entries(articles)) {
      if (id in readWatchlist().articles) continue;
      const result = toggleWatchlistArticle(id, title);
      if (!result.ok) {
        logger.error('[mf-watchlist] the shared watchlist could not be imported', result.error);
        setOutcome({ kind: 'failed' });
        return;
      }
      added += 1;
      bus.emit('watchlist-updated', { watchlist: result.watchlist, count: watchlistCount(result.watchlist) });
      bus.emit('watchlist-added', { id, title, added: true, source: 'mf-watchlist/SharedWatchlistImport' });
    }
    setOutcome(added > 0 ? { kind: 'imported', count: added } : { kind: 'alreadySaved' });
  };

  const message =
    outcome?.kind === 'imported'
      ? outcome.count === 1
        ? texts.importedOne
        : texts.imported.replace('{count}', String(outcome.count))
      : outcome?.kind === 'alreadySaved'
        ? texts.alreadySaved
        : outcome?.kind === 'failed'
          ? texts.failed
          : '';

  return (
    <div className="khs-watchlist-shared-import">
      <button type="button" onClick={importArticles} disabled={total === 0 || !ready}>
        {total === 1 ? texts.importOneLabel : texts.importLabel.replace('{count}', String(total))}
      </button>
      <p role="status" aria-live="polite">
        {message}
      </p>
      {outcome && outcome.kind !== 'failed' ? <a href={watchlistHref}>{texts.openWatchlist}</a> : null}
    </div>
  );
}
