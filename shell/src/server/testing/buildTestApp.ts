import type { FastifyInstance } from 'fastify';
import { DEFAULT_CALL_URLS } from 'contracts';
import { readBrowserSettings } from '@khs/stack/browser-settings';
import { buildShellApp, type FeatureRegistration, type ShellApp } from '../app.js';
import { readShellConfig } from '../config.js';
import { repositoryContentStore, type ContentStore } from '../content/contentStore.js';
import type { RateLimitCounterRepository } from '../database/index.js';
import type { ServerIslands } from '../federation/serverIslands.js';
import type { ImageCatalogue } from '../seo/imageCatalogue.js';

/** The development cookie secret the test apps use (default config). */
export const TEST_COOKIE_SECRET = readShellConfig({}).cookieSecret;

/**
 * A shell app with default config (plus `env`) for `app.inject` tests; pass feature plugins to
 * test them, and the database's rate-limit counters to test limits shared between instances.
 */
export async function buildTestApp(
  options: {
    content?: ContentStore;
    features?: FeatureRegistration[];
    env?: NodeJS.ProcessEnv;
    rateLimitCounters?: RateLimitCounterRepository;
    /** The content images (default: the content store's folder). */
    images?: ImageCatalogue;
    /** Islands rendered on the server (default none: placeholders). */
    islands?: ServerIslands;
  } = {},
): Promise<ShellApp> {
  return buildShellApp({
    config: readShellConfig(options.env ?? {}),
    content: options.content ?? repositoryContentStore,
    // The slices' real browser settings, as the shell reads them at start.
    browserSettings: await readBrowserSettings(options.env ?? {}),
    features: options.features ?? [],
    ...(options.rateLimitCounters ? { rateLimitCounters: options.rateLimitCounters } : {}),
    ...(options.images ? { images: options.images } : {}),
    ...(options.islands ? { islands: options.islands } : {}),
  });
}

/** A CSRF token and the cookie it is bound to, as a browser would hold them. */
export async function fetchCsrf(app: FastifyInstance): Promise<{ token: string; cookie: string }> {
  const response = await app.inject({ method: 'GET', url: DEFAULT_CALL_URLS.csrfToken });
  const setCookie = response.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .map((value) => String(value).split(';')[0])
    .join('; ');
  return { token: response.body, cookie };
}
