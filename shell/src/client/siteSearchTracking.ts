import type { ConsentState, PageBus } from 'contracts';

/** Matomo's command queue (`window._paq`), present when a Matomo tracker is on the page. */
type MatomoQueue = { push(command: unknown[]): void };

/**
 * Turns `search-submitted` into Matomo's `trackSiteSearch(keyword, category, resultsCount)` when
 * a tracker is present and the visitor consented to tracking.
 */
export function startSiteSearchTracking(
  bus: PageBus,
  getConsent: () => ConsentState,
  getTracker: () => MatomoQueue | undefined = () => (window as { _paq?: MatomoQueue })._paq,
): () => void {
  return bus.on('search-submitted', ({ query, hitCount }) => {
    const tracker = getTracker();
    if (!tracker || !getConsent().tracking) return;
    tracker.push(['trackSiteSearch', query, false, hitCount]);
  });
}
