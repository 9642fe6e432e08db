import type { ReactElement } from 'react';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SEARCH_INPUT_MAX_LENGTH, type PageConfig } from 'contracts';
import type { ContentStore } from '../content/contentStore.js';
import { ArticlePage } from './ArticlePage.js';
import { HomePage } from './HomePage.js';
import { FIRST_VIEW_REMOTES, Layout } from './Layout.js';
import { NotFoundPage } from './NotFoundPage.js';
import { renderPageWithIslands, serverTimingHeader } from '../federation/islandCollector.js';
import type { ServerIslands } from '../federation/serverIslands.js';
import { renderPage } from './renderPage.js';
import { markPageDegraded } from '../delivery/pageCache.js';
import { SearchPage } from './SearchPage.js';
import { WatchlistPage } from './WatchlistPage.js';

export interface PageRouteOptions {
  content: ContentStore;
  pageConfig: PageConfig;
  runtimeUrl: string;
  /** Articles on the home page. Default 12. */
  homeArticleCount?: number;
  /** Renders islands with the remotes' server builds. Without it, islands hold their placeholders. */
  islands?: ServerIslands;
}

/** Same bytes for every visitor: shared caches may keep these pages (`delivery/pageCache.ts`). */
const SHARED = { pageCache: 'shared' } as const;

/** Server-rendered pages: home, article, search, watchlist, and the 404 page. */
export async function pageRoutes(app: FastifyInstance, options: PageRouteOptions): Promise<void> {
  const { content, pageConfig: config, runtimeUrl, homeArticleCount = 12, islands } = options;
  const render = (request: FastifyRequest, reply: FastifyReply, page: ReactElement) =>
    islands
      ? renderPageWithIslands(page, islands, { config, url: request.url }, (timings) => {
          if (islands.serverTiming && timings.length > 0) reply.header('Server-Timing', serverTimingHeader(timings));
          // A placeholder where a remote failed: this render must not be what caches keep.
          if (timings.some((timing) => !timing.ok)) markPageDegraded(reply);
        })
      : renderPage(page);
  const html = (reply: { type(value: string): unknown }) => reply.type('text/html; charset=utf-8');

  app.get('/', { config: SHARED }, async (request, reply) => {
    html(reply);
    return render(
      request,
      reply,
      <Layout title="Latest articles" config={config} runtimeUrl={runtimeUrl} pageClass="page-home">
        <HomePage articles={content.listArticles().slice(0, homeArticleCount)} />
      </Layout>,
    );
  });

  app.get<{ Params: { id: string } }>('/articles/:id', { config: SHARED }, async (request, reply) => {
    const article = content.getArticle(request.params.id);
    if (!article) return reply.callNotFound();
    html(reply);
    const survey = article.surveyHandle ? content.getSurvey(article.surveyHandle) : undefined;
    return render(
      request,
      reply,
      <Layout title={article.title} config={config} runtimeUrl={runtimeUrl} pageClass="page-article">
        <ArticlePage article={article} survey={survey} />
      </Layout>,
    );
  });

  app.get<{ Querystring: { q?: unknown } }>(config.calls.searchPage, { config: SHARED }, async (request, reply) => {
    const query = typeof request.query.q === 'string' ? request.query.q.slice(0, SEARCH_INPUT_MAX_LENGTH) : '';
    html(reply);
    return render(
      request,
      reply,
      <Layout title="Search" config={config} runtimeUrl={runtimeUrl} query={query} pageClass="page-search" firstViewRemotes={[...FIRST_VIEW_REMOTES, 'mf-search']}>
        <SearchPage config={config} query={query} />
      </Layout>,
    );
  });

  app.get(config.calls.watchlistPage, async (request, reply) => {
    html(reply);
    return render(
      request,
      reply,
      <Layout title={config.i18n.watchlistHeadline} config={config} runtimeUrl={runtimeUrl} pageClass="page-watchlist">
        <WatchlistPage config={config} />
      </Layout>,
    );
  });

  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply.code(404).send({ error: 'Not found' });
    }
    reply.code(404);
    html(reply);
    return render(
      request,
      reply,
      <Layout title="Not found" config={config} runtimeUrl={runtimeUrl}>
        <NotFoundPage />
      </Layout>,
    );
  });
}
