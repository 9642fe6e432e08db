import type { Readable } from 'node:stream';
import type { ReactElement } from 'react';
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import { callRoutePattern, type PageConfig } from 'contracts';
import { EDGE_KEY_HEADER } from '@khs/team-service/edge';
import { Layout } from '../pages/Layout.js';
import { NotFoundPage } from '../pages/NotFoundPage.js';
import { renderPage } from '../pages/renderPage.js';
import { servicePagePath, type EdgePageDeclaration } from '../proxy/edgePolicy.js';
import { OPERATOR_LIMIT } from '../security/rateLimit/rateLimitPolicies.js';
import { rateLimitConfig } from '../security/rateLimit/rateLimiting.js';
import { fetchServicePage } from './fetchPageFragment.js';
import { PageFragmentContent } from './PageFragmentContent.js';

/** What a service's declared pages need. */
export interface ServiceFragmentPagesOptions {
  /** Origins of the service's instances; a page request goes to one in turn. */
  upstreams: string[];
  /** The service's edge key, sent with every request to it. */
  edgeKey: string;
  /** How long a page waits for the service (ms). */
  responseTimeoutMs: number;
  /** The pages the service declares in its edge policy. */
  pages: EdgePageDeclaration[];
  pageConfig: PageConfig;
  runtimeUrl: string;
  /**
   * Renders the page with its islands rendered by their remotes, streamed as the shell's own pages
   * (`ShellCore.streamIslandPage`: the reply's cache rule set when the head goes). Default:
   * `renderPage` (placeholders, whole).
   */
  streamIslandPage?: (reply: FastifyReply, page: ReactElement) => Promise<string | Readable>;
}

/**
 * The pages a team service declares (`pages` of its edge policy), composed the same way for every
 * service: `GET <page path>` asks the service for the `PageFragment` at the same path (query
 * included) and wraps it in the site layout with the service's status, its islands rendered by
 * their remotes and streamed (a shared page by the streamed-page cache rule, `markPageStart`); a
 * 404 from the service is the site's 404 page; a service that is down, too slow or answers no
 * fragment gives the declared heading and text with 503. The shell knows no page's content or
 * rules (the share id's shape, say, is the service's to check).
 */
export async function serviceFragmentPages(app: FastifyInstance, options: ServiceFragmentPagesOptions): Promise<void> {
  const { pageConfig, runtimeUrl, upstreams, edgeKey, responseTimeoutMs } = options;
  if (upstreams.length === 0) throw new Error('A service page needs an upstream');
  let next = 0;
  const render = async (reply: FastifyReply, page: ReactElement) => (options.streamIslandPage ? options.streamIslandPage(reply, page) : renderPage(page));

  for (const declared of options.pages) {
    // A page behind a token: tries limited per address (a token cannot be guessed at speed).
    const routeConfig: RouteShorthandOptions = declared.sharedCache
      ? { config: { pageCache: 'shared' as const } }
      : declared.forwardsAuthorization
        ? { config: rateLimitConfig(OPERATOR_LIMIT) }
        : {};
    app.get(callRoutePattern(servicePagePath(declared)), routeConfig, async (request, reply) => {
      reply.type('text/html; charset=utf-8');
      if (declared.robots) reply.header('x-robots-tag', declared.robots);
      const authorization = declared.forwardsAuthorization ? request.headers.authorization : undefined;
      if (declared.forwardsAuthorization) reply.header('cache-control', 'no-store');
      const fetched = await fetchServicePage(
        `${upstreams[next++ % upstreams.length]!}${request.url}`,
        { [EDGE_KEY_HEADER]: edgeKey, ...(authorization ? { authorization } : {}) },
        responseTimeoutMs,
      );
      if (fetched === 'not-found') {
        return reply.code(404).send(
          renderPage(
            <Layout title="Not found" config={pageConfig} runtimeUrl={runtimeUrl}>
              <NotFoundPage />
            </Layout>,
          ),
        );
      }
      if (fetched === 'unavailable') {
        return reply
          .code(503)
          .header('retry-after', '5')
          .header('cache-control', 'no-store')
          .send(
            renderPage(
              <Layout title={declared.unavailable.title} config={pageConfig} runtimeUrl={runtimeUrl}>
                <section className="service-page-unavailable" aria-labelledby="service-page-unavailable-title">
                  <h1 id="service-page-unavailable-title">{declared.unavailable.title}</h1>
                  <p>{declared.unavailable.text}</p>
                </section>
              </Layout>,
            ),
          );
      }
      const { fragment, status } = fetched;
      if (declared.forwardsAuthorization && status === 401 && fetched.wwwAuthenticate) reply.header('www-authenticate', fetched.wwwAuthenticate);
      const page = (
        <Layout title={fragment.title} config={pageConfig} runtimeUrl={runtimeUrl} pageClass={fragment.pageClass} {...(fragment.styles ? { contentStyles: fragment.styles } : {})}>
          <PageFragmentContent fragment={fragment} />
        </Layout>
      );
      // Streamed like the shell's own pages: the status and headers go with the head, the islands follow.
      reply.code(status);
      return reply.send(await render(reply, page));
    });
  }
}
