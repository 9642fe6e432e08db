import type { FastifyInstance } from 'fastify';
import { SERVICE_PATHS, type LocalWatchlist, type PageConfig, type Teaser } from 'contracts';
import type { ShellCore } from '../app.js';
import { Layout } from '../pages/Layout.js';
import { NotFoundPage } from '../pages/NotFoundPage.js';
import { renderPage } from '../pages/renderPage.js';
import { SharedWatchlistPage } from './SharedWatchlistPage.js';
import { markPageDegraded } from '../delivery/pageCache.js';

/** Path prefix of sharing URLs; the share id follows. */
export const SHARED_WATCHLIST_PATH = '/watchlist/shared';

/** Share ids are URL-safe tokens; anything else is not looked up. */
const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** What the watchlist service answers for a shared list. */
interface SharedWatchlistBody {
  teasers: Teaser[];
  importable: LocalWatchlist['articles'];
}

export interface SharedWatchlistRoutesOptions {
  /** Origins of the watchlist service's instances (`WATCHLIST_SERVICE_URL`); a request goes to one in turn. */
  upstreams: string[];
  /** How long the page waits for the service (ms). */
  timeoutMs: number;
  pageConfig: PageConfig;
  runtimeUrl: string;
  /** Renders the page with its islands rendered by their remotes. Default: `renderPage` (placeholders). */
  renderIslandPage?: ShellCore['renderIslandPage'];
}

/** The shared list from the watchlist service: the body, `null` when unknown, `'unavailable'` when the service failed. */
async function fetchSharedWatchlist(origin: string, shareId: string, timeoutMs: number): Promise<SharedWatchlistBody | null | 'unavailable'> {
  try {
    const response = await fetch(`${origin}${SERVICE_PATHS.watchlistShare.replace('{shareId}', encodeURIComponent(shareId))}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status === 404) return null;
    if (!response.ok) return 'unavailable';
    const body = (await response.json()) as SharedWatchlistBody;
    return Array.isArray(body?.teasers) && typeof body.importable === 'object' && body.importable !== null ? body : 'unavailable';
  } catch {
    return 'unavailable';
  }
}

/**
 * The shared-watchlist page, composed by the shell (a page: the site layout, the island of the
 * watchlist remote) from the data the watchlist service answers (`SERVICE_PATHS.watchlistShare`).
 * 404 page for an unknown id; a readable 503 page when the service is down or too slow.
 */
export async function sharedWatchlistRoutes(app: FastifyInstance, options: SharedWatchlistRoutesOptions): Promise<void> {
  const { pageConfig, runtimeUrl, upstreams, timeoutMs } = options;
  let next = 0;
  const render = (page: React.ReactElement, url: string, onDegraded: () => void) =>
    options.renderIslandPage ? options.renderIslandPage(page, url, onDegraded) : renderPage(page);

  // A share is a snapshot, the same for everyone with its link: shared caches may keep the page.
  app.get<{ Params: { shareId: string } }>(`${SHARED_WATCHLIST_PATH}/:shareId`, { config: { pageCache: 'shared' } }, async (request, reply) => {
    const { shareId } = request.params;
    const origin = upstreams[next++ % upstreams.length]!;
    const shared = SHARE_ID_PATTERN.test(shareId) ? await fetchSharedWatchlist(origin, shareId, timeoutMs) : null;
    reply.type('text/html; charset=utf-8').header('x-robots-tag', 'noindex');
    if (shared === null) {
      return reply.code(404).send(
        renderPage(
          <Layout title="Not found" config={pageConfig} runtimeUrl={runtimeUrl}>
            <NotFoundPage />
          </Layout>,
        ),
      );
    }
    if (shared === 'unavailable') {
      return reply
        .code(503)
        .header('retry-after', '5')
        .header('cache-control', 'no-store')
        .send(
          renderPage(
            <Layout title="Shared watchlist" config={pageConfig} runtimeUrl={runtimeUrl} pageClass="page-shared-watchlist">
              <section className="shared-watchlist" aria-labelledby="shared-watchlist-title">
                <h1 id="shared-watchlist-title">Shared watchlist</h1>
                <p className="shared-watchlist__empty">This shared watchlist cannot be shown right now. Please try again in a moment.</p>
              </section>
            </Layout>,
          ),
        );
    }
    const page = (
      <Layout title="Shared watchlist" config={pageConfig} runtimeUrl={runtimeUrl} pageClass="page-shared-watchlist">
        <SharedWatchlistPage teasers={shared.teasers} importable={shared.importable} />
      </Layout>
    );
    return reply.send(await render(page, request.url, () => markPageDegraded(reply)));
  });
}
