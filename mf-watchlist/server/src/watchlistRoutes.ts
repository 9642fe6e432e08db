import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Article } from '@khs/content';
import { EDGE_KEY_HEADER, isEdgeKey, trustedLinkOrigin, trustedVisitorId } from '@khs/team-service/edge';
import { sendApiError } from '@khs/team-service/errors';
import {
  DEFAULT_CALL_URLS,
  PAGE_FRAGMENT_MEDIA_TYPE,
  SERVICE_PAGE_PATHS,
  WATCHLIST_PDF_FILE_NAME,
  callRoutePattern,
  examplePageConfig,
  type LocalWatchlist,
  type Teaser,
  type WatchlistResponse,
} from 'contracts';
import { articleTeaser, type TeaserLabels } from './articleTeaser.js';
import { DOWNLOAD_BODY_LIMIT_BYTES, WATCHLIST_BODY_LIMIT_BYTES } from './edgePolicy.js';
import { RELATED_ARTICLES_MAX, SHARE_BOUND } from './limits.js';
import { parseWatchlistRequest } from './parseWatchlistRequest.js';
import { relatedArticles } from './relatedArticles.js';
import { renderWatchlistPdf } from './renderWatchlistPdf.js';
import { sharedWatchlistFragment } from './sharedWatchlistPage.js';
import { resolveWatchlist } from './resolveWatchlist.js';
import type { ShareCreator, WatchlistShareRepository } from './storage/watchlistShareRepository.js';
import type { WatchlistContent } from './watchlistContent.js';

/** The sharing URL's path of a share (the shared-watchlist page, `SERVICE_PAGE_PATHS.sharedWatchlist`). */
export function sharedWatchlistPath(shareId: string): string {
  return SERVICE_PAGE_PATHS.sharedWatchlist.replace('{shareId}', encodeURIComponent(shareId));
}

/**
 * Who asks for a share, as keys (HMAC with the edge key: the rows never hold an address or a
 * visitor id): the client address the edge forwarded (`x-forwarded-for`, believed with the edge
 * key; else the socket's peer) and the visitor id it named.
 */
export function shareCreatorOf(request: FastifyRequest, edgeKey: string): ShareCreator {
  const fromEdge = isEdgeKey(request.headers[EDGE_KEY_HEADER], edgeKey);
  const forwardedFor = request.headers['x-forwarded-for'];
  const address = fromEdge && typeof forwardedFor === 'string' && forwardedFor.length > 0 ? forwardedFor : request.ip;
  const key = (kind: string, value: string) => createHmac('sha256', edgeKey).update(`${kind}:${value}`).digest('base64url').slice(0, 32);
  const visitorId = trustedVisitorId(request.headers, edgeKey);
  return { addressKey: key('address', address), visitorKey: visitorId ? key('visitor', visitorId) : undefined };
}

/** The service's default texts: the teasers' watchlist-button labels (the page config may override them in the browser). */
const DEFAULT_LABELS: TeaserLabels = { add: examplePageConfig().i18n.watchlistAdd, remove: examplePageConfig().i18n.watchlistRemove };

export interface WatchlistRoutesOptions {
  content: WatchlistContent;
  /** Where shared watchlists are stored. */
  shares: Pick<WatchlistShareRepository, 'create' | 'get'>;
  /** Printed on the PDF (`SITE_NAME`). */
  siteName: string;
  /** Its own edge key (registry `edgeKeyEnv`): only the edge may say where links point. */
  edgeKey: string;
  /** Link origin of requests that did not come through the edge (`PUBLIC_BASE_URL` of the service). Default: relative links. */
  fallbackLinkOrigin?: string;
  /** Clock for the PDF date. Default `new Date()`. */
  now?: () => Date;
  labels?: TeaserLabels;
}

/**
 * The watchlist calls (spec point 7), reached by browsers through the shell's proxy (which checks
 * the CSRF token and names the link origin), and the shared-watchlist page the shell composes:
 * - `POST /api/watchlist` resolves the local watchlist to teasers, related articles and a sharing URL
 *   (none once its creator added `SHARE_BOUND` new shares in the window);
 * - `POST /api/watchlist/pdf` answers the same list as a PDF;
 * - `GET /watchlist/shared/:shareId` the shared list's page content (`PageFragment`, declared as a
 *   page in `slice.json`'s `service.edgePolicy`), 404 JSON for an unknown or malformed share id.
 * Bodies are limited as the edge policy declares (`edgePolicy.ts`); bad bodies get 400/422 JSON, nothing stored.
 */
export async function watchlistRoutes(app: FastifyInstance, options: WatchlistRoutesOptions): Promise<void> {
  const { content, shares, siteName, edgeKey, now = () => new Date() } = options;
  const labels = options.labels ?? DEFAULT_LABELS;
  const linkOrigin = (request: FastifyRequest) => trustedLinkOrigin(request.headers, edgeKey) ?? options.fallbackLinkOrigin ?? '';
  const teasersOf = (articles: readonly Article[]): Teaser[] => articles.map((article) => articleTeaser(article, labels));
  const asLocalArticles = (articles: readonly Article[]): LocalWatchlist['articles'] =>
    Object.fromEntries(articles.map((article) => [article.id, { title: article.title }]));

  app.post(callRoutePattern(DEFAULT_CALL_URLS.watchlist), { bodyLimit: WATCHLIST_BODY_LIMIT_BYTES }, async (request, reply) => {
    const saved = resolveWatchlist(parseWatchlistRequest(request.body), content);
    const related = relatedArticles(saved, content.listArticles(), RELATED_ARTICLES_MAX);
    // Only known articles, with the store's titles, are shared: nothing the client made up is kept.
    // A creator past SHARE_BOUND gets the list without a new sharing URL.
    const shareId =
      saved.length > 0
        ? await shares.create(asLocalArticles(saved), {
            creator: shareCreatorOf(request, edgeKey),
            since: new Date(now().getTime() - SHARE_BOUND.windowMs),
            perAddress: SHARE_BOUND.perAddress,
            perVisitor: SHARE_BOUND.perVisitor,
          })
        : undefined;
    const sharingUrl = shareId ? `${linkOrigin(request)}${sharedWatchlistPath(shareId)}` : '';
    const body: WatchlistResponse = {
      storedWatchlist: {
        articles: Object.fromEntries(teasersOf(saved).map((teaser) => [teaser.id, teaser])),
        relatedArticles: teasersOf(related),
        sharingUrl,
      },
    };
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.post(callRoutePattern(DEFAULT_CALL_URLS.download), { bodyLimit: DOWNLOAD_BODY_LIMIT_BYTES }, async (request, reply) => {
    const saved = resolveWatchlist(parseWatchlistRequest(request.body), content);
    const pdf = await renderWatchlistPdf({ siteName, articles: saved, baseUrl: linkOrigin(request), date: now() });
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${WATCHLIST_PDF_FILE_NAME}"`)
      .type('application/pdf')
      .send(pdf);
  });

  app.get<{ Params: { shareId: string } }>(callRoutePattern(SERVICE_PAGE_PATHS.sharedWatchlist), async (request, reply) => {
    const shared = await shares.get(request.params.shareId);
    if (!shared) return sendApiError(reply, { statusCode: 404, message: 'Unknown shared watchlist' });
    const articles = resolveWatchlist({ articles: shared }, content);
    const fragment = sharedWatchlistFragment({ teasers: teasersOf(articles), importable: asLocalArticles(articles) });
    return reply.header('cache-control', 'no-store').type(PAGE_FRAGMENT_MEDIA_TYPE).send(JSON.stringify(fragment));
  });
}
