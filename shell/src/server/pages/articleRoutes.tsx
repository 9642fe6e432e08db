import type { ReactElement } from 'react';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { IslandContentReader, PageConfig } from 'contracts';
import { PREVIEW_PATH_PREFIX, verifyPreviewLink } from '@khs/content';
import type { ContentStore } from '../content/contentStore.js';
import { ArticlePage } from './ArticlePage.js';
import { Layout } from './Layout.js';
import { previewContentReader } from './pageContentReader.js';
import type { PageImage } from './pageImage.js';
import { articleMetadata, noindexMetadata, type MetadataContext } from '../seo/pageMetadataFor.js';

/** What the article routes share with the other pages (`pageRoutes`). */
export interface ArticleRouteContext {
  content: ContentStore;
  config: PageConfig;
  runtimeUrl: string;
  previewSecret?: string;
  /** Renders a page, its islands reading the site's content through `reader`. */
  render(request: FastifyRequest, reply: FastifyReply, page: ReactElement, reader: IslandContentReader): Promise<string | Readable> | string;
  metadataContext(request: FastifyRequest): MetadataContext;
  imageOf(contentUrl: string): PageImage;
  knownImageOf(contentUrl: string): PageImage | undefined;
  /** The content a public page's islands may read: public articles, served images. */
  publicContent: IslandContentReader;
}

const html = (reply: FastifyReply) => reply.type('text/html; charset=utf-8');

/** The article pages: `/articles/:id` (shared caches may keep it) and an editor's signed preview. */
export function articleRoutes(app: FastifyInstance, context: ArticleRouteContext): void {
  const { content, config, runtimeUrl, previewSecret, render, imageOf, knownImageOf } = context;

  app.get<{ Params: { id: string } }>('/articles/:id', { config: { pageCache: 'shared' } }, async (request, reply) => {
    const article = content.getArticle(request.params.id);
    if (!article) return reply.callNotFound();
    html(reply);
    return render(
      request,
      reply,
      <Layout title={article.title} config={config} runtimeUrl={runtimeUrl} pageClass="page-article" metadata={articleMetadata(context.metadataContext(request), article)}>
        <ArticlePage article={article} image={imageOf(article.image)} resolveImage={knownImageOf} />
      </Layout>,
      context.publicContent,
    );
  });

  // An editor's preview of any article (a draft, a scheduled one) in the real layout, through a link
  // signed with PREVIEW_SECRET (`npm run preview-link -w @khs/content -- <id>`). A forged, changed or
  // expired link is the site's ordinary 404; a preview is never cached or indexed. Its islands may
  // read the previewed article too.
  app.get<{ Params: { id: string }; Querystring: { expires?: unknown; signature?: unknown } }>(`${PREVIEW_PATH_PREFIX}:id`, async (request, reply) => {
    const { id } = request.params;
    const article =
      previewSecret && verifyPreviewLink(id, request.query.expires, request.query.signature, previewSecret) ? content.getArticleForPreview?.(id) : undefined;
    if (!article) return reply.callNotFound();
    reply.header('Cache-Control', 'private, no-store').header('X-Robots-Tag', 'noindex, nofollow');
    html(reply);
    return render(
      request,
      reply,
      <Layout title={`Preview: ${article.title}`} config={config} metadata={noindexMetadata()} runtimeUrl={runtimeUrl} pageClass="page-article">
        <ArticlePage article={article} image={imageOf(article.image)} resolveImage={knownImageOf} />
      </Layout>,
      previewContentReader(context.publicContent, article),
    );
  });
}
