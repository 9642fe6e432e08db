import type { ReactElement } from 'react';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IslandContentReader, PageConfig } from 'contracts';
import type { ContentStore } from '../content/contentStore.js';
import { articleRoutes } from './articleRoutes.js';
import { pageContentReader } from './pageContentReader.js';
import { HomePage } from './HomePage.js';
import { FIRST_VIEW_REMOTES, Layout } from './Layout.js';
import { NotFoundPage } from './NotFoundPage.js';
import { serverTimingOf, streamPage, streamPageWithIslands } from '../federation/islandCollector.js';
import type { ServerIslands } from '../federation/serverIslands.js';
import { renderPage } from './renderPage.js';
import { SlicePage } from './SlicePage.js';
import { SITE_SLICE_PAGES, slicePageContext, type SlicePage as SlicePageDefinition } from '../slicePages/slicePages.js';
import type { LinkOriginResolver } from '../security/linkOrigin.js';
import type { ImageCatalogue } from '../seo/imageCatalogue.js';
import { homeMetadata, noindexMetadata, slicePageMetadata, type MetadataContext } from '../seo/pageMetadataFor.js';
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
  /** The pages the slices declare. Default the site's (`SITE_SLICE_PAGES`); a test may give others. */
  slicePages?: readonly SlicePageDefinition[];
}

/** Same bytes for every visitor: shared caches may keep these pages (`delivery/pageCache.ts`). */
const SHARED = { pageCache: 'shared' } as const;

/** Server-rendered pages: home, article, the pages the slices declare, and the 404 page. */
export async function pageRoutes(app: FastifyInstance, options: PageRouteOptions): Promise<void> {
  const { content, pageConfig: config, runtimeUrl, homeArticleCount = 12, islands, linkOrigin, images, previewSecret, slicePages = SITE_SLICE_PAGES } = options;
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

  // The pages the slices declare in their manifests (`remote.pages`): the site's layout, a heading
  // and the page's slot, filled by their islands.
  for (const page of slicePages) {
    app.get<{ Querystring: Record<string, unknown> }>(page.path, page.sharedCache ? { config: SHARED } : {}, async (request, reply) => {
      const context = slicePageContext(page, request.query);
      html(reply);
      return render(
        request,
        reply,
        <Layout title={page.title} config={config} runtimeUrl={runtimeUrl} query={context.query} {...(page.pageClass ? { pageClass: page.pageClass } : {})} firstViewRemotes={[...new Set([...FIRST_VIEW_REMOTES, ...page.firstViewRemotes])]} metadata={slicePageMetadata(metadataContext(request), page, context.query)}>
          <SlicePage page={page} context={context} />
        </Layout>,
      );
    });
  }

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
