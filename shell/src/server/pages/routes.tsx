import type { ReactElement } from 'react';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SEARCH_INPUT_MAX_LENGTH, type IslandContentReader, type PageConfig } from 'contracts';
import type { ContentStore } from '../content/contentStore.js';
import { articleRoutes } from './articleRoutes.js';
import { pageContentReader } from './pageContentReader.js';
import { HomePage } from './HomePage.js';
import { FIRST_VIEW_REMOTES, Layout, remoteOfIsland } from './Layout.js';
import { NotFoundPage } from './NotFoundPage.js';
import { serverTimingOf, streamPage, streamPageWithIslands } from '../federation/islandCollector.js';
import type { ServerIslands } from '../federation/serverIslands.js';
import { renderPage } from './renderPage.js';
import { SEARCH_LIST_ISLAND, SearchPage } from './SearchPage.js';
import { WatchlistPage } from './WatchlistPage.js';
import type { LinkOriginResolver } from '../security/linkOrigin.js';
import type { ImageCatalogue } from '../seo/imageCatalogue.js';
import { homeMetadata, noindexMetadata, searchMetadata, type MetadataContext } from '../seo/pageMetadataFor.js';
import { knownPageImageOf, pageImageOf } from './pageImage.js';

export interface PageRouteOptions {
  content: ContentStore;
  pageConfig: PageConfig;
  runtimeUrl: string;
  /** Articles on the home page. Default 12. */
  homeArticleCount?: number;
  /** Renders islands with the remotes' server builds. Without it, islands hold their placeholders. */
  islands?: ServerIslands;
  /** Origin of the pages' absolute links (canonical URL, cards, JSON-LD). */
  linkOrigin: LinkOriginResolver;
  /** Content images by content hash (the pages' images, the cards' images). */
  images: ImageCatalogue;
  /** `PREVIEW_SECRET`: checks editors' signed preview links. Default none (preview pages are 404). */
  previewSecret?: string;
}

/** Same bytes for every visitor: shared caches may keep these pages (`delivery/pageCache.ts`). */
const SHARED = { pageCache: 'shared' } as const;

/** Server-rendered pages: home, article, search, watchlist, and the 404 page. */
export async function pageRoutes(app: FastifyInstance, options: PageRouteOptions): Promise<void> {
  const { content, pageConfig: config, runtimeUrl, homeArticleCount = 12, islands, linkOrigin, images, previewSecret } = options;
  const metadataContext = (request: FastifyRequest): MetadataContext => ({ origin: linkOrigin(request), siteName: config.siteName, images });
  const imageOf = pageImageOf(images);
  const knownImageOf = knownPageImageOf(images);
  // What the pages' islands may read of the site's content (`IslandServerContext.content`).
  const publicContent = pageContentReader(content, images);
  const render = (request: FastifyRequest, reply: FastifyReply, page: ReactElement, reader: IslandContentReader = publicContent) =>
    islands
      ? streamPage(reply, streamPageWithIslands(page, islands, { config, url: request.url, content: reader }, { onTimings: serverTimingOf(islands, reply) }))
      : renderPage(page);
  const html = (reply: { type(value: string): unknown }) => reply.type('text/html; charset=utf-8');

  app.get('/', { config: SHARED }, async (request, reply) => {
    html(reply);
    return render(
      request,
      reply,
      <Layout title="Latest articles" config={config} runtimeUrl={runtimeUrl} pageClass="page-home" metadata={homeMetadata(metadataContext(request), config.calls.searchPage)}>
        <HomePage articles={content.listArticles().slice(0, homeArticleCount)} imageOf={imageOf} />
      </Layout>,
    );
  });

  articleRoutes(app, { content, config, runtimeUrl, previewSecret, render, metadataContext, imageOf, knownImageOf, publicContent });

  app.get<{ Querystring: { q?: unknown } }>(config.calls.searchPage, { config: SHARED }, async (request, reply) => {
    const query = typeof request.query.q === 'string' ? request.query.q.slice(0, SEARCH_INPUT_MAX_LENGTH) : '';
    html(reply);
    return render(
      request,
      reply,
      <Layout title="Search" config={config} runtimeUrl={runtimeUrl} query={query} pageClass="page-search" firstViewRemotes={[...FIRST_VIEW_REMOTES, remoteOfIsland(SEARCH_LIST_ISLAND)]} metadata={searchMetadata(metadataContext(request), config.calls.searchPage, query)}>
        <SearchPage config={config} query={query} />
      </Layout>,
    );
  });

  app.get(config.calls.watchlistPage, async (request, reply) => {
    html(reply);
    return render(
      request,
      reply,
      <Layout title={config.i18n.watchlistHeadline} config={config} runtimeUrl={runtimeUrl} pageClass="page-watchlist" metadata={noindexMetadata()}>
        <WatchlistPage config={config} />
      </Layout>,
    );
  });

  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply.code(404).header('cache-control', 'no-store').send({ error: 'Not found', code: 'not-found' });
    }
    reply.code(404);
    html(reply);
    return render(
      request,
      reply,
      <Layout title="Not found" config={config} runtimeUrl={runtimeUrl} metadata={noindexMetadata()}>
        <NotFoundPage />
      </Layout>,
    );
  });
}
