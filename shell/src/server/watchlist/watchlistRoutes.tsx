import type { FastifyInstance } from 'fastify';
import { WATCHLIST_PDF_FILE_NAME, type LocalWatchlist, type PageConfig, type Teaser, type WatchlistResponse } from 'contracts';
import type { Article, ContentStore } from '../content/contentStore.js';
import { Layout } from '../pages/Layout.js';
import { NotFoundPage } from '../pages/NotFoundPage.js';
import type { ShellCore } from '../app.js';
import { renderPage } from '../pages/renderPage.js';
import type { LinkOriginResolver } from '../security/linkOrigin.js';
import { articleTeaser, type TeaserLabels } from './articleTeaser.js';
import { RELATED_ARTICLES_MAX, WATCHLIST_BODY_LIMIT_BYTES } from './limits.js';
import { parseWatchlistRequest } from './parseWatchlistRequest.js';
import { relatedArticles } from './relatedArticles.js';
import { renderWatchlistPdf } from './renderWatchlistPdf.js';
import { resolveWatchlist } from './resolveWatchlist.js';
import { SharedWatchlistPage } from './SharedWatchlistPage.js';
import type { WatchlistShareStore } from './watchlistShareStore.js';

/** Path prefix of sharing URLs; the share id follows. */
export const SHARED_WATCHLIST_PATH = '/watchlist/shared';

/** Share ids the database hands out are URL-safe tokens; anything else is not looked up. */
const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

export interface WatchlistRoutesOptions {
  content: ContentStore;
  /** Where shared watchlists are stored (`openDatabase(...).watchlistShares`). */
  shares: WatchlistShareStore;
  /** Printed on the PDF. */
  siteName: string;
  /**
   * Origin of sharing URLs and PDF links for a request (`createLinkOriginResolver`): the
   * configured `PUBLIC_BASE_URL`, or an allowed host — never an arbitrary request's host.
   */
  linkOrigin: LinkOriginResolver;
  /** Page config and runtime script URL, to render the shared-watchlist page in the site layout. */
  pageConfig: PageConfig;
  runtimeUrl: string;
  /** Clock for the PDF date. Default `new Date()`. */
  now?: () => Date;
  /** Renders the shared-watchlist page (islands rendered by their remotes). Default: `renderPage` (placeholders). */
  renderIslandPage?: ShellCore['renderIslandPage'];
}

/**
 * The watchlist calls of the specification (point 7) and the shared-watchlist page:
 * - `POST calls.watchlist` resolves the local watchlist to teasers, related articles and a sharing URL;
 * - `POST calls.download` answers the same list as a PDF;
 * - `GET /watchlist/shared/:shareId` shows a shared list read-only, with an import island.
 * Bodies are limited to `WATCHLIST_BODY_LIMIT_BYTES`; CSRF is checked by the shell for every POST.
 */
export async function watchlistRoutes(app: FastifyInstance, options: WatchlistRoutesOptions): Promise<void> {
  const { content, shares, siteName, pageConfig, runtimeUrl, now = () => new Date() } = options;
  const labels: TeaserLabels = { add: pageConfig.i18n.watchlistAdd, remove: pageConfig.i18n.watchlistRemove };
  const baseUrl = options.linkOrigin;
  const teasersOf = (articles: readonly Article[]): Teaser[] => articles.map((article) => articleTeaser(article, labels));
  const asLocalArticles = (articles: readonly Article[]): LocalWatchlist['articles'] =>
    Object.fromEntries(articles.map((article) => [article.id, { title: article.title }]));

  app.post(pageConfig.calls.watchlist, { bodyLimit: WATCHLIST_BODY_LIMIT_BYTES }, async (request, reply) => {
    const saved = resolveWatchlist(parseWatchlistRequest(request.body), content);
    const related = relatedArticles(saved, content.listArticles(), RELATED_ARTICLES_MAX);
    // Only known articles, with the store's titles, are shared: nothing the client made up is kept.
    const sharingUrl =
      saved.length > 0 ? `${baseUrl(request)}${SHARED_WATCHLIST_PATH}/${await shares.create(asLocalArticles(saved))}` : '';
    const body: WatchlistResponse = {
      storedWatchlist: {
        articles: Object.fromEntries(teasersOf(saved).map((teaser) => [teaser.id, teaser])),
        relatedArticles: teasersOf(related),
        sharingUrl,
      },
    };
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.post(pageConfig.calls.download, { bodyLimit: WATCHLIST_BODY_LIMIT_BYTES }, async (request, reply) => {
    const saved = resolveWatchlist(parseWatchlistRequest(request.body), content);
    const pdf = await renderWatchlistPdf({ siteName, articles: saved, baseUrl: baseUrl(request), date: now() });
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${WATCHLIST_PDF_FILE_NAME}"`)
      .type('application/pdf')
      .send(pdf);
  });

  app.get<{ Params: { shareId: string } }>(`${SHARED_WATCHLIST_PATH}/:shareId`, async (request, reply) => {
    const { shareId } = request.params;
    const shared = SHARE_ID_PATTERN.test(shareId) ? await shares.get(shareId) : undefined;
    reply.type('text/html; charset=utf-8').header('x-robots-tag', 'noindex');
    if (!shared) {
      return reply.code(404).send(
        renderPage(
          <Layout title="Not found" config={pageConfig} runtimeUrl={runtimeUrl}>
            <NotFoundPage />
          </Layout>,
        ),
      );
    }
    const articles = resolveWatchlist({ articles: shared }, content);
    const page = (
      <Layout title="Shared watchlist" config={pageConfig} runtimeUrl={runtimeUrl} pageClass="page-shared-watchlist">
        <SharedWatchlistPage teasers={teasersOf(articles)} importable={asLocalArticles(articles)} />
      </Layout>
    );
    return reply.send(options.renderIslandPage ? await options.renderIslandPage(page, request.url) : renderPage(page));
  });
}
