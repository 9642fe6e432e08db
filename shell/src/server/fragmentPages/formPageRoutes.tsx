import type { ReactElement } from 'react';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyReplyFrom, { type FastifyReplyFromHooks } from '@fastify/reply-from';
import { SERVICE_FORM_PAGE_PATHS, type PageConfig, type PageFragment } from 'contracts';
import { EDGE_KEY_HEADER, FORM_TOKEN_HEADER, LINK_ORIGIN_HEADER, VISITOR_ID_HEADER } from '@khs/team-service/edge';
import { Layout } from '../pages/Layout.js';
import { renderPage } from '../pages/renderPage.js';
import { csrfSecretOf, isValidCsrfToken } from '../security/csrf.js';
import { inFlightPerAddress } from '../security/inFlightPerAddress.js';
import { rateLimitConfig } from '../security/rateLimit/rateLimiting.js';
import type { EdgeFormPageDeclaration } from '../proxy/edgePolicy.js';
import { FormPostRefusedAtEdge, gateFormPost } from './formTokenGate.js';
import { fetchPageFragment, readFragmentBody, type FetchedFragment } from './fetchPageFragment.js';
import { PageFragmentContent } from './PageFragmentContent.js';
import { sitePageMetadata, type MetadataContext } from '../seo/pageMetadataFor.js';

/** What a service's form page needs. */
export interface FormPageRoutesOptions {
  /** The form page as the service declares it (its edge policy's `formPages`). */
  form: EdgeFormPageDeclaration;
  /** Origins of the service's instances; requests go to one in turn. */
  upstreams: string[];
  /** How long to wait for a connection to an instance (ms). */
  connectTimeoutMs: number;
  /** How long the page waits for the service's answer (ms). */
  responseTimeoutMs: number;
  /** The service's edge key (registry `edgeKeyEnv`), sent with every request to it. */
  edgeKey: string;
  pageConfig: PageConfig;
  runtimeUrl: string;
  /** Renders the page with its islands rendered by their remotes. Default: `renderPage` (placeholders). */
  renderIslandPage?: (page: ReactElement, url: string) => Promise<string>;
  /**
   * Link origin, site name and images of a request: with the form's declared `index`, the form page
   * (200, its own address, no query) is then listed with its canonical URL. Default none: `noindex`.
   */
  metadataContext?: (request: FastifyRequest) => MetadataContext;
  /** How long a post's upload may take to arrive (ms), then the 408 page. Default: the declared `uploadTimeoutMs` (tests shorten it). */
  uploadTimeoutMs?: number;
}

/**
 * Client headers never forwarded: the visitor's cookies and token stay at the edge; edge headers are
 * the edge's to set. `Expect: 100-continue` was met here (the shell's server answered `100 Continue`
 * before the post streamed on): the service gets the body without it (undici refuses the header).
 */
const DROPPED_REQUEST_HEADERS = ['cookie', 'x-csrf-token', EDGE_KEY_HEADER, VISITOR_ID_HEADER, LINK_ORIGIN_HEADER, FORM_TOKEN_HEADER, 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'expect'];

function statusOf(error: Partial<FastifyError>): number {
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The fresh CSRF token the edge made for the page it will compose (a form post). */
    formPageToken?: string;
  }
}

/**
 * A form page a service declares (its edge policy's `formPages`), composed by the shell from the
 * service's content (the slice owns the form, its texts, validation and storage; the shell owns the
 * layout and the edge), the same way for every service:
 * - `GET <page>`: a fresh CSRF token (and its secret cookie) is made here and sent to the service,
 *   whose `PageFragment` (its `content` path, the page's query passed on) is wrapped in the layout,
 *   its islands rendered by their remotes like the shell's own;
 * - `POST <page>`: checked here first, from the headers alone: not multipart 415, no boundary 400,
 *   declared size over `maxBodyBytes` 413, no valid secret cookie 403, more than the declared
 *   `rateLimit` posts from the address 429; then the form's token (`gateFormPost`: a forged upload
 *   is refused 403 before its file is read or anything is forwarded). Then the post is streamed to
 *   the service (body capped at the same size); its 303 is passed on, its 4xx/5xx content (errors,
 *   refused post) composed with its status; a refusal of the edge shows the service's `problem`
 *   content for its status;
 * - a dead or slow service: the declared `unavailable` page in the layout with 503 (504 for a
 *   timeout) and nothing else on the site affected.
 */
export async function formPageRoutes(app: FastifyInstance, options: FormPageRoutesOptions): Promise<void> {
  const { pageConfig, runtimeUrl, upstreams, edgeKey, form } = options;
  const paths = SERVICE_FORM_PAGE_PATHS[form.page];
  if (upstreams.length === 0) throw new Error(`No upstream for the ${paths.page} form page`);
  let next = 0;
  const nextUpstream = () => upstreams[next++ % upstreams.length]!;

  const render = (page: ReactElement, url: string) => (options.renderIslandPage ? options.renderIslandPage(page, url) : renderPage(page));
  const sendPage = async (request: FastifyRequest, reply: FastifyReply, status: number, fragment: PageFragment) => {
    // Only the form itself is listed, when its service says so: its confirmation (`?sent=`) and
    // refusals are `noindex` (Layout's default).
    const isFormPage = status === 200 && request.method === 'GET' && request.url === paths.page;
    const metadata =
      isFormPage && form.index && options.metadataContext
        ? { metadata: sitePageMetadata(options.metadataContext(request), paths.page, fragment.title, form.index.description) }
        : {};
    const html = await render(
      <Layout title={fragment.title} config={pageConfig} runtimeUrl={runtimeUrl} pageClass={fragment.pageClass} {...(fragment.styles ? { contentStyles: fragment.styles } : {})} {...metadata}>
        <PageFragmentContent fragment={fragment} />
      </Layout>,
      request.url,
    );
    // The page holds a per-visitor token: shared caches must not keep it.
    return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  };
  const sendUnavailable = (reply: FastifyReply, timedOut: boolean) =>
    reply
      .code(timedOut ? 504 : 503)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('retry-after', '5')
      .send(
        renderPage(
          <Layout title={form.unavailable.title} config={pageConfig} runtimeUrl={runtimeUrl} {...(form.unavailable.pageClass ? { pageClass: form.unavailable.pageClass } : {})}>
            <section className="service-page-unavailable" aria-labelledby="service-page-unavailable-title">
              <h1 id="service-page-unavailable-title">{form.unavailable.heading}</h1>
              <p>
                {timedOut ? 'It took too long to answer. ' : ''}
                {form.unavailable.text}
              </p>
              <p>
                <a href="/">Back to the latest articles</a>
              </p>
            </section>
          </Layout>,
        ),
      );
  const compose = async (request: FastifyRequest, reply: FastifyReply, fetched: FetchedFragment) =>
    fetched === 'unavailable' ? sendUnavailable(reply, false) : sendPage(request, reply, fetched.status, fetched.fragment);
  const edgeHeaders = (formToken: string | undefined): Record<string, string> => ({ [EDGE_KEY_HEADER]: edgeKey, ...(formToken ? { [FORM_TOKEN_HEADER]: formToken } : {}) });
  /**
   * The page for a post refused here, with the service's explanation of `status` (a 408 with its
   * "could not be read" one: the service has no page of its own for a post that stopped coming).
   */
  const refusalPage = async (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const explained = status === 408 ? 400 : status;
    const url = `${nextUpstream()}${paths.problem.replace('{status}', String(explained))}`;
    const fetched = await fetchPageFragment(url, edgeHeaders(undefined), options.responseTimeoutMs);
    if (fetched === 'unavailable') return sendUnavailable(reply, false);
    return sendPage(request, reply, status, fetched.fragment);
  };

  app.get(paths.page, async (request, reply) => {
    const token = await reply.generateCsrf();
    // The page's query goes to the service as it came (e.g. the confirmation's `?sent=`).
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const fetched = await fetchPageFragment(`${nextUpstream()}${paths.content}${query}`, edgeHeaders(token), options.responseTimeoutMs);
    return compose(request, reply, fetched);
  });

  // The post is streamed to the service; reply-from lives only inside this plugin.
  await app.register(fastifyReplyFrom, {
    base: upstreams.length === 1 ? upstreams[0]! : upstreams,
    undici: { connections: form.connectionsPerUpstream, pipelining: 1, connect: { timeout: options.connectTimeoutMs }, headersTimeout: options.responseTimeoutMs, bodyTimeout: options.responseTimeoutMs },
    disableRequestLogging: true,
  });
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const header = request.headers['x-csrf-token'];
    gateFormPost(payload, {
      headers: request.headers,
      headerTokenValid: typeof header === 'string' && isValidCsrfToken(request, header),
      isValid: (token) => isValidCsrfToken(request, token),
      bodyLimit: form.maxBodyBytes,
    }).then(
      (body) => done(null, body),
      (error: Error) => done(error, undefined),
    );
  });

  const onError: NonNullable<FastifyReplyFromHooks['onError']> = (reply, { error }) => {
    // The upload stopped coming while it streamed to the service: the visitor's fault, not the service's.
    if (reply.request.bodyTimedOut) return void refusalPage(reply.request as FastifyRequest, reply as unknown as FastifyReply, 408);
    reply.request.log.warn({ err: error }, `the service of ${paths.page} did not answer`);
    void sendUnavailable(reply as unknown as FastifyReply, (error as Error & { statusCode?: number }).statusCode === 504);
  };

  const inFlight = inFlightPerAddress(form.inFlightPerAddress);
  app.post(
    paths.page,
    {
      bodyLimit: form.maxBodyBytes,
      // A plain form cannot send the header: the token is checked in the form (the content parser).
      // An upload may take longer to arrive than a call's body (`edgeLimits.ts`).
      config: { csrfExempt: true, bodyTimeoutMs: options.uploadTimeoutMs ?? form.uploadTimeoutMs, ...rateLimitConfig(form.rateLimit) },
      // Header-only checks, before the rate limiter (which runs after the route's own onRequest).
      onRequest: [
        async (request) => {
          // `request.isMultipart()` is only known once the parser ran: read the header itself.
          const contentType = request.headers['content-type'] ?? '';
          if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) throw new FormPostRefusedAtEdge(415, 'The form is sent as multipart/form-data');
          if (!/;\s*boundary=/i.test(contentType)) throw new FormPostRefusedAtEdge(400, 'The form data could not be read (no multipart boundary)');
          const declared = Number(request.headers['content-length']);
          if (Number.isFinite(declared) && declared > form.maxBodyBytes) throw new FormPostRefusedAtEdge(413, 'The form is larger than allowed');
          if (!csrfSecretOf(request)) throw new FormPostRefusedAtEdge(403, 'The form token cookie is missing');
        },
        // At most a few posts of one address stream to the service at once: slow uploads cannot hold its connections.
        inFlight.onRequest,
      ],
      // The fresh token for the form shown again after a validation error (the service puts it in the page).
      preHandler: async (request, reply) => {
        request.formPageToken = await reply.generateCsrf();
      },
      // A browser posted this form: refusals are pages, not the API's JSON errors.
      errorHandler: (error: FastifyError, request, reply) => {
        const status = statusOf(error);
        if (status >= 500) request.log.error({ err: error }, 'form post failed at the edge');
        else request.log.info({ status, reason: error.message }, 'form post refused at the edge');
        return refusalPage(request, reply, status);
      },
    },
    (request, reply) =>
      reply.from(paths.page, {
        rewriteRequestHeaders: (original, headers) => {
          const forwarded = { ...headers };
          for (const name of DROPPED_REQUEST_HEADERS) delete forwarded[name];
          forwarded['x-forwarded-for'] = original.ip;
          return { ...forwarded, ...edgeHeaders((original as FastifyRequest).formPageToken) };
        },
        // The answer is composed here: its length and type are the page's, not the fragment's.
        rewriteHeaders: (headers) => {
          const { location } = headers;
          return { 'cache-control': 'no-store', ...(location ? { location } : {}), 'x-upstream-content-type': headers['content-type'] ?? '' };
        },
        onResponse: (original, outgoing, response) => {
          const upstreamType = String(outgoing.getHeader('x-upstream-content-type') ?? '');
          outgoing.removeHeader('x-upstream-content-type');
          const status = response.statusCode;
          if (status === 303) {
            response.stream.resume();
            return void outgoing.code(303).send();
          }
          void readFragmentBody(status, upstreamType, response.stream as AsyncIterable<Uint8Array>).then((fetched) => compose(original as FastifyRequest, outgoing as unknown as FastifyReply, fetched));
        },
        onError,
      }),
  );
}
