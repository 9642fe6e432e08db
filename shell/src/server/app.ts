import path from 'node:path';
import type { Readable } from 'node:stream';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { observeFastify } from '@khs/observability';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { apiErrorOf, jsonClientErrorHandler, sendApiError, type ApiErrorBody } from '@khs/team-service/errors';
import { CONTENT_ARTICLE_IMAGES_BASE_URL, CONTENT_IMAGES_BASE_URL, contentImagesDir, contentMediaDir } from '@khs/content';
import type { PageConfig } from 'contracts';
import type { ShellConfig } from './config.js';
import type { ContentStore } from './content/contentStore.js';
import type { RateLimitCounterRepository } from './database/index.js';
import { buildPageConfig, NO_SLICE_BROWSER_SETTINGS, type SliceBrowserSettings } from './pageConfig.js';
import type { ReactElement } from 'react';
import { precompressedStaticOptions, registerCompression } from './delivery/compression.js';
import { pageCache, PageVersion, type PageVersionSources } from './delivery/pageCache.js';
import { previewRoutes } from './federation/preview/previewRoutes.js';
import { requestVersions, requestVersionsOf } from './federation/requestVersions.js';
import type { VersionSelectionPlugin } from './federation/versionSelection.js';
import { serverTimingOf, streamPage, streamPageWithIslands } from './federation/islandCollector.js';
import type { ServerIslands } from './federation/serverIslands.js';
import { renderRequestErrorPage } from './pages/RequestErrorPage.js';
import { renderPage } from './pages/renderPage.js';
import { pageRoutes } from './pages/routes.js';
import { csrfProtection } from './security/csrf.js';
import { SERVER_REQUEST_TIMEOUT_MS } from './security/edgeLimits.js';
import { securityHeaders } from './security/headers.js';
import { createLinkOriginResolver, type LinkOriginResolver } from './security/linkOrigin.js';
import { createImageCatalogue, HASHED_IMAGES_PREFIX, type ImageCatalogue } from './seo/imageCatalogue.js';
import { seoRoutes } from './seo/seoRoutes.js';
import { databaseRateLimitStore } from './security/rateLimit/databaseRateLimitStore.js';
import { registerRateLimiting } from './security/rateLimit/rateLimiting.js';
import { requestBodies } from './security/requestBodies.js';
import { absoluteFormTargets, originFormRewrite } from './security/requestTarget.js';
import { singleHostHeader } from './security/singleHostHeader.js';
import { fastifyTrustProxy, trustedProxyPeer } from './security/trustProxy.js';

const SHELL_ROOT = path.resolve(import.meta.dirname, '../..');

export interface ShellDependencies {
  config: ShellConfig;
  content: ContentStore;
  /**
   * The slices' browser settings (`readBrowserSettings` of `@khs/stack/browser-settings`): page config
   * fields passed through, and the origins browsers reach for them. Default none (contracts' example values).
   */
  browserSettings?: SliceBrowserSettings;
  /** Built client runtime (`shell-runtime.js` and chunks). Default `shell/dist/client`. */
  clientAssetsDir?: string;
  /** Feature routes (the team services' proxies and pages, the health view…), registered after the core. */
  features?: FeatureRegistration[];
  /**
   * Counters of the rate-limited routes (`openDatabase(...).rateLimitCounters`, shared by every
   * instance on PostgreSQL). Default: an in-memory store of this process.
   */
  rateLimitCounters?: RateLimitCounterRepository;
  /** Renders islands on the server with the remotes' server builds. Default: none (placeholders). */
  islands?: ServerIslands;
  /**
   * The version selection chain (preview, canary…), most general first: which build of each
   * remote a request renders and pins. Needs `islands`. Default none: every page renders the live builds.
   */
  versionSelection?: VersionSelectionPlugin[];
  /** Fastify logger setting. Default off. */
  logger?: FastifyServerOptions['logger'];
  /** A logger instance for Fastify (the process's pino logger), over `logger`. Default none. */
  loggerInstance?: FastifyBaseLogger;
  /** With `loggerInstance`: Fastify's own lines for each request. Default false. */
  logRequests?: boolean;
  /**
   * Origin of the absolute links pages and listings hand out (canonical URLs, social cards,
   * sitemap, feed). Default: `PUBLIC_BASE_URL`, else the configured `HOST:PORT`, or an allowed host.
   */
  linkOrigin?: LinkOriginResolver;
  /** The content images pages reference by content hash. Default: the content store's image folder. */
  images?: ImageCatalogue;
  /**
   * Version of the content, alike in every instance (`PageVersionSources.contentVersion`). Default:
   * the content store's `version()` (derived from the content itself) when it has one, else per process.
   */
  contentVersion?: PageVersionSources['contentVersion'];
}

/** A feature's Fastify plugin and its options. */
export interface ShellFeature {
  plugin: FastifyPluginAsync<never>;
  options?: unknown;
}

/** What the core hands features that render pages in the site layout. */
export interface ShellCore {
  pageConfig: PageConfig;
  /** URL of the client runtime script for `Layout`. */
  runtimeUrl: string;
  /**
   * Renders a full page whose islands are rendered by their remotes and streams it as the shell's
   * own pages (`streamPageWithIslands`): the reply gets its cache rule when the head goes
   * (`markPageStart`); the answer is the body to send (the whole page, or a stream). Without server
   * islands: the page with its placeholders.
   */
  streamIslandPage(reply: FastifyReply, page: ReactElement): Promise<string | Readable>;
  /** Origin of a request's absolute links (canonical URLs in `Layout`'s `metadata`). */
  linkOrigin: LinkOriginResolver;
  /** The content images, by content hash (social cards). */
  images: ImageCatalogue;
}

/** A feature, or a function building it from the core (when it needs the page config). */
export type FeatureRegistration = ShellFeature | ((core: ShellCore) => ShellFeature);

export interface ShellApp extends ShellCore {
  app: FastifyInstance;
  /** The version shared-cacheable pages are tagged with; `pageVersion.contentChanged()` after a publish. */
  pageVersion: PageVersion;
}

/** JSON error body every API error uses (`{ error, code }`, shared with the team services). */
export type ApiError = ApiErrorBody;

/** Paths whose errors are answered as JSON (API calls); every other path gets the site's HTML error pages. */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/actions/');
}

function origin(url: string): string {
  return new URL(url).origin;
}

/** Version tag for the runtime URL so browsers refetch it after a deploy. */
function runtimeVersion(dir: string): string {
  const file = path.join(dir, 'shell-runtime.js');
  return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12) : 'dev';
}

/** Builds the shell server: pages, CSRF, security headers, static files, feature routes. */
export async function buildShellApp(deps: ShellDependencies): Promise<ShellApp> {
  const { config, content } = deps;
  const clientAssetsDir = deps.clientAssetsDir ?? path.join(SHELL_ROOT, 'dist/client');
  const browserSettings = deps.browserSettings ?? NO_SLICE_BROWSER_SETTINGS;
  const pageConfig = buildPageConfig(config, browserSettings);
  const runtimeUrl = `/assets/shell-runtime.js?v=${runtimeVersion(clientAssetsDir)}`;
  const app = createShellFastify(deps, pageConfig, runtimeUrl);
  await registerRequestGuards(app, deps);
  const pageVersion = await registerPageVersioning(app, deps, runtimeUrl);
  await registerStaticFiles(app, clientAssetsDir);

  // Liveness for load balancers and container health checks: the process answers (nothing downstream is asked).
  app.get('/health', async () => ({ ok: true }));
  const linkOrigin =
    deps.linkOrigin ??
    createLinkOriginResolver({ publicBaseUrl: config.publicBaseUrl ?? `http://${config.host}:${config.port}`, allowedHosts: config.allowedHosts });
  const images = await registerContentImages(app, deps);
  await app.register(seoRoutes, {
    content,
    images,
    linkOrigin,
    siteName: config.siteName,
    faviconSvgPath: path.join(SHELL_ROOT, 'public/favicon.svg'),
  });
  if (config.remotePreviewSecret && deps.islands) {
    const federation = deps.islands.federation;
    await app.register(previewRoutes, {
      secret: config.remotePreviewSecret,
      remotes: config.remotes.map((remote) => remote.name),
      warm: (remote, version) => federation.preloadVersion(remote, version),
    });
  }
  await app.register(pageRoutes, { content, pageConfig, runtimeUrl, islands: deps.islands, linkOrigin, images, ...(config.previewSecret ? { previewSecret: config.previewSecret } : {}) });
  const islands = deps.islands;
  const streamIslandPage = async (reply: FastifyReply, page: ReactElement) =>
    islands
      ? streamPage(reply, streamPageWithIslands(page, islands, { config: pageConfig, url: reply.request.url }, { onTimings: serverTimingOf(islands, reply) }))
      : renderPage(page);
  for (const registration of deps.features ?? []) {
    const feature = typeof registration === 'function' ? registration({ pageConfig, runtimeUrl, streamIslandPage, linkOrigin, images }) : registration;
    await app.register(feature.plugin, feature.options as never);
  }
  return { app, pageConfig, runtimeUrl, streamIslandPage, linkOrigin, images, pageVersion };
}

/** The Fastify instance: its limits, its proxy trust, its error answers (JSON for calls, the site's page for pages), its metrics. */
function createShellFastify(deps: ShellDependencies, pageConfig: PageConfig, runtimeUrl: string): FastifyInstance {
  const { config } = deps;
  // Proxies are believed only when configured (TRUST_PROXY): else X-Forwarded-* is ignored.
  const app = Fastify({
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance, disableRequestLogging: deps.logRequests !== true } : { logger: deps.logger ?? false }),
    bodyLimit: 1024 * 1024,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // The backstop behind the bodies' own deadlines (`requestBodies`): no request lasts longer to arrive.
    requestTimeout: SERVER_REQUEST_TIMEOUT_MS,
    // An absolute-form target (`POST http://host/api/x`) is routed and forwarded as its origin-form;
    // one for another host is refused by `absoluteFormTargets`.
    rewriteUrl: originFormRewrite({ publicBaseUrl: config.publicBaseUrl, allowedHosts: config.allowedHosts }),
    // Errors answered before any route runs: the one JSON shape for calls, the site's page for pages.
    frameworkErrors: (error, request, frameworkReply) => {
      const reply = frameworkReply as unknown as FastifyReply;
      if (isApiPath(request.url)) return void sendApiError(reply, error);
      const { status } = apiErrorOf(error);
      void reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderRequestErrorPage(status, pageConfig, runtimeUrl));
    },
    clientErrorHandler: jsonClientErrorHandler,
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (!(error.statusCode && error.statusCode < 500)) request.log.error(error);
    return sendApiError(reply, error);
  });
  // Request metrics, and a span per request with tracing on: a `traceparent` is continued only
  // from a proxy TRUST_PROXY names (anyone else's request starts its own trace).
  const trustedPeer = trustedProxyPeer(config.trustProxy);
  observeFastify(app, { part: 'shell', trustTraceparent: (request) => trustedPeer(request.socket.remoteAddress) });
  return app;
}

/** What every request passes first: one Host, origin-form targets, bounded bodies, security headers, cookies, CSRF, rate limits. */
async function registerRequestGuards(app: FastifyInstance, deps: ShellDependencies): Promise<void> {
  const { config } = deps;
  await app.register(singleHostHeader);
  await app.register(absoluteFormTargets);
  await app.register(requestBodies);
  await securityHeaders(app, {
    remoteOrigins: config.remotes.map((remote) => origin(remote.entry)),
    connectOrigins: (deps.browserSettings ?? NO_SLICE_BROWSER_SETTINGS).connectOrigins,
  });
  await app.register(fastifyCookie, { secret: config.cookieSecret });
  await app.register(csrfProtection);
  await registerRateLimiting(app, deps.rateLimitCounters && databaseRateLimitStore(deps.rateLimitCounters));
}

/**
 * The version shared-cacheable pages are tagged with (shell build, remote builds, data, content),
 * the version selection of each request, the page cache and compression.
 */
async function registerPageVersioning(app: FastifyInstance, deps: ShellDependencies, runtimeUrl: string): Promise<PageVersion> {
  const { config } = deps;
  const contentVersion = deps.contentVersion ?? (deps.content.version ? () => deps.content.version!() : undefined);
  const pageVersion = new PageVersion({
    shellBuild: runtimeUrl,
    ...(deps.islands ? { remoteBuilds: () => deps.islands!.federation.liveBuildVersions(), dataVersions: () => deps.islands!.dataVersions() } : {}),
    ...(contentVersion ? { contentVersion } : {}),
  });
  // A saved, added or removed article, or a schedule come due, re-tags every shared-cacheable page.
  const stopFollowingContent = deps.content.onChange?.(() => pageVersion.contentChanged());
  if (stopFollowingContent) app.addHook('onClose', async () => void stopFollowingContent());
  if (deps.versionSelection && deps.islands) {
    await app.register(requestVersions, { plugins: deps.versionSelection, remotes: config.remotes.map((remote) => remote.name) });
  }
  await app.register(pageCache, { version: pageVersion, personalCacheControl: (request) => requestVersionsOf(request)?.cacheControl });
  await registerCompression(app);
  return pageVersion;
}

/** The client runtime (immutable, precompressed), the shell's public files, the content's images and media. */
async function registerStaticFiles(app: FastifyInstance, clientAssetsDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: clientAssetsDir,
    prefix: '/assets/',
    maxAge: '1y',
    immutable: true,
    decorateReply: false,
    ...precompressedStaticOptions,
  });
  await app.register(fastifyStatic, { root: path.join(SHELL_ROOT, 'public'), prefix: '/static/', decorateReply: false });
  await app.register(fastifyStatic, { root: contentImagesDir, prefix: '/content-images/', maxAge: '1d', decorateReply: false });
  await app.register(fastifyStatic, { root: contentMediaDir, prefix: '/content-media/', maxAge: '1d', decorateReply: false });
}

/** The catalogue of content images (kept current as articles change) and the route serving them by their plain URL. */
async function registerContentImages(app: FastifyInstance, deps: ShellDependencies): Promise<ImageCatalogue> {
  const images = deps.images ?? (await createImageCatalogue({ dir: contentImagesDir, contentBaseUrl: CONTENT_IMAGES_BASE_URL, articlesDir: deps.config.contentDir }));
  // An image added with a new article is indexed before that article's first page render: the
  // store tells its listeners synchronously, and the catalogue's refresh is synchronous.
  const stopFollowingImages = deps.content.onChange?.(() => images.refreshArticleImages?.());
  if (stopFollowingImages) app.addHook('onClose', async () => void stopFollowingImages());
  // The images next to the articles by their plain URL (what search hits and feeds of other
  // sites may carry): only files the catalogue indexed, so never an article's Markdown.
  app.get<{ Params: { '*': string } }>(`${CONTENT_ARTICLE_IMAGES_BASE_URL}/*`, async (request, reply) => {
    const image = images.resolve(`${CONTENT_ARTICLE_IMAGES_BASE_URL}/${request.params['*']}`);
    const file = image && images.fileOf(image.src.slice(HASHED_IMAGES_PREFIX.length));
    if (!file) return reply.callNotFound();
    return reply.type(file.type).header('cache-control', 'public, max-age=86400').send(await readFile(file.file));
  });
  return images;
}
