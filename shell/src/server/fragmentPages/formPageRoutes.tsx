import type { Readable } from 'node:stream';
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
  /**
   * Renders the page with its islands rendered by their remotes, streamed as the shell's own pages
   * (`ShellCore.streamIslandPage`). Default: `renderPage` (placeholders, whole).
   */
  streamIslandPage?: (reply: FastifyReply, page: ReactElement) => Promise<string | Readable>;
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

/** A form page's addresses: the page itself, its content at the service, the service's problem pages. */
type FormPagePaths = (typeof SERVICE_FORM_PAGE_PATHS)[keyof typeof SERVICE_FORM_PAGE_PATHS];

/** What every route of one form page works with. */
interface FormPageContext {
  options: FormPageRoutesOptions;
  paths: FormPagePaths;
  /** Origin of the service instance to ask next: each in turn. */
  nextUpstream: () => string;
}

/** The edge's headers to the service: its edge key, and the form's fresh token when there is one. */
function edgeHeaders(edgeKey: string, formToken: string | undefined): Record<string, string> {
  return { [EDGE_KEY_HEADER]: edgeKey, ...(formToken ? { [FORM_TOKEN_HEADER]: formToken } : {}) };
}

/** Sends the service's `fragment` in the layout with `status`, its islands rendered by their remotes. */
async function sendFragmentPage({ options, paths }: FormPageContext, request: FastifyRequest, reply: FastifyReply, status: number, fragment: PageFragment) {
  const { form } = options;
  // Only the form itself is listed, when its service says so: its confirmation (`?sent=`) and
  // refusals are `noindex` (Layout's default).
  const isFormPage = status === 200 && request.method === 'GET' && request.url === paths.page;
  const metadata =
    isFormPage && form.index && options.metadataContext
      ? { metadata: sitePageMetadata(options.metadataContext(request), paths.page, fragment.title, form.index.description) }
      : {};
  const page = (
    <Layout title={fragment.title} config={options.pageConfig} runtimeUrl={options.runtimeUrl} pageClass={fragment.pageClass} {...(fragment.styles ? { contentStyles: fragment.styles } : {})} {...metadata}>
      <PageFragmentContent fragment={fragment} />
    </Layout>
  );
  // The page holds a per-visitor token: shared caches must not keep it, streamed or whole (set
  // before the head goes; the route is not a shared one, so the streamed-page rule leaves it).
  reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store');
  return reply.send(await (options.streamIslandPage ? options.streamIslandPage(reply, page) : renderPage(page)));
}

/** Sends the form's declared `unavailable` page in the layout: 503, or 504 when the service `timedOut`. */
function sendUnavailable({ options }: FormPageContext, reply: FastifyReply, timedOut: boolean) {
  const { unavailable } = options.form;
  return reply
    .code(timedOut ? 504 : 503)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('retry-after', '5')
    .send(
      renderPage(
        <Layout title={unavailable.title} config={options.pageConfig} runtimeUrl={options.runtimeUrl} {...(unavailable.pageClass ? { pageClass: unavailable.pageClass } : {})}>
          <section className="service-page-unavailable" aria-labelledby="service-page-unavailable-title">
            <h1 id="service-page-unavailable-title">{unavailable.heading}</h1>
            <p>
              {timedOut ? 'It took too long to answer. ' : ''}
              {unavailable.text}
            </p>
            <p>
              <a href="/">Back to the latest articles</a>
            </p>
          </section>
        </Layout>,
      ),
    );
}

/** Sends what the service answered: its content composed with its status, or the unavailable page. */
function sendFetched(context: FormPageContext, request: FastifyRequest, reply: FastifyReply, fetched: FetchedFragment) {
  return fetched === 'unavailable' ? sendUnavailable(context, reply, false) : sendFragmentPage(context, request, reply, fetched.status, fetched.fragment);
}

/**
 * The page for a post refused here, with the service's explanation of `status` (a 408 with its
 * "could not be read" one: the service has no page of its own for a post that stopped coming).
 */
async function sendRefusalPage(context: FormPageContext, request: FastifyRequest, reply: FastifyReply, status: number) {
  const explained = status === 408 ? 400 : status;
  const url = `${context.nextUpstream()}${context.paths.problem.replace('{status}', String(explained))}`;
  const fetched = await fetchPageFragment(url, edgeHeaders(context.options.edgeKey, undefined), context.options.responseTimeoutMs);
  if (fetched === 'unavailable') return sendUnavailable(context, reply, false);
  return sendFragmentPage(context, request, reply, status, fetched.fragment);
}

/** `GET <page>`: a fresh CSRF token sent to the service, its content (the page's query passed on) in the layout. */
function serveFormPage(app: FastifyInstance, context: FormPageContext): void {
  app.get(context.paths.page, async (request, reply) => {
    const token = await reply.generateCsrf();
    // The page's query goes to the service as it came (e.g. the confirmation's `?sent=`).
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const fetched = await fetchPageFragment(`${context.nextUpstream()}${context.paths.content}${query}`, edgeHeaders(context.options.edgeKey, token), context.options.responseTimeoutMs);
    return sendFetched(context, request, reply, fetched);
  });
}

/**
 * Registers what a post streams through: reply-from to the service's instances (only inside this
 * plugin), and a multipart parser that lets only a post with a valid form token through (`gateFormPost`).
 */
async function registerPostStreaming(app: FastifyInstance, { options }: FormPageContext): Promise<void> {
  const { form, upstreams } = options;
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
}

/**
 * A post's checks from its headers alone, before the rate limiter and before its body is read: not
 * multipart 415, no boundary 400, declared size over `maxBodyBytes` 413, no secret cookie 403.
 */
function checkPostHeaders(maxBodyBytes: number) {
  return async (request: FastifyRequest) => {
    // `request.isMultipart()` is only known once the parser ran: read the header itself.
    const contentType = request.headers['content-type'] ?? '';
    if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) throw new FormPostRefusedAtEdge(415, 'The form is sent as multipart/form-data');
    if (!/;\s*boundary=/i.test(contentType)) throw new FormPostRefusedAtEdge(400, 'The form data could not be read (no multipart boundary)');
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBodyBytes) throw new FormPostRefusedAtEdge(413, 'The form is larger than allowed');
    if (!csrfSecretOf(request)) throw new FormPostRefusedAtEdge(403, 'The form token cookie is missing');
  };
}

/** A post that failed while it streamed to the service: the 408 page for an upload that stopped coming, else unavailable. */
function upstreamErrorHandler(context: FormPageContext): NonNullable<FastifyReplyFromHooks['onError']> {
  return (reply, { error }) => {
    // The upload stopped coming while it streamed to the service: the visitor's fault, not the service's.
    if (reply.request.bodyTimedOut) return void sendRefusalPage(context, reply.request as FastifyRequest, reply as unknown as FastifyReply, 408);
    reply.request.log.warn({ err: error }, `the service of ${context.paths.page} did not answer`);
    void sendUnavailable(context, reply as unknown as FastifyReply, (error as Error & { statusCode?: number }).statusCode === 504);
  };
}

/**
 * Streams a checked post to the service (without the visitor's cookies and token, with the edge's
 * headers) and answers with its 303 as it is, or its content composed with its status.
 */
function forwardPost(context: FormPageContext) {
  return (request: FastifyRequest, reply: FastifyReply) =>
    reply.from(context.paths.page, {
      rewriteRequestHeaders: (original, headers) => {
        const forwarded = { ...headers };
        for (const name of DROPPED_REQUEST_HEADERS) delete forwarded[name];
        forwarded['x-forwarded-for'] = original.ip;
        return { ...forwarded, ...edgeHeaders(context.options.edgeKey, (original as FastifyRequest).formPageToken) };
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
        void readFragmentBody(status, upstreamType, response.stream as AsyncIterable<Uint8Array>).then((fetched) =>
          sendFetched(context, original as FastifyRequest, outgoing as unknown as FastifyReply, fetched),
        );
      },
      onError: upstreamErrorHandler(context),
    });
}

/** `POST <page>`: the edge's checks, the rate limit and the in-flight cap, then the post streamed to the service. */
function acceptFormPosts(app: FastifyInstance, context: FormPageContext): void {
  const { form } = context.options;
  const inFlight = inFlightPerAddress(form.inFlightPerAddress);
  app.post(
    context.paths.page,
    {
      bodyLimit: form.maxBodyBytes,
      // A plain form cannot send the header: the token is checked in the form (the content parser).
      // An upload may take longer to arrive than a call's body (`edgeLimits.ts`).
      config: { csrfExempt: true, bodyTimeoutMs: context.options.uploadTimeoutMs ?? form.uploadTimeoutMs, ...rateLimitConfig(form.rateLimit) },
      // Header-only checks, before the rate limiter (which runs after the route's own onRequest).
      // At most a few posts of one address stream to the service at once: slow uploads cannot hold its connections.
      onRequest: [checkPostHeaders(form.maxBodyBytes), inFlight.onRequest],
      // The fresh token for the form shown again after a validation error (the service puts it in the page).
      preHandler: async (request, reply) => {
        request.formPageToken = await reply.generateCsrf();
      },
      // A browser posted this form: refusals are pages, not the API's JSON errors.
      errorHandler: (error: FastifyError, request, reply) => {
        const status = statusOf(error);
        if (status >= 500) request.log.error({ err: error }, 'form post failed at the edge');
        else request.log.info({ status, reason: error.message }, 'form post refused at the edge');
        return sendRefusalPage(context, request, reply, status);
      },
    },
    forwardPost(context),
  );
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
  const paths = SERVICE_FORM_PAGE_PATHS[options.form.page];
  const { upstreams } = options;
  if (upstreams.length === 0) throw new Error(`No upstream for the ${paths.page} form page`);
  let next = 0;
  const context: FormPageContext = { options, paths, nextUpstream: () => upstreams[next++ % upstreams.length]! };
  serveFormPage(app, context);
  await registerPostStreaming(app, context);
  acceptFormPosts(app, context);
}
