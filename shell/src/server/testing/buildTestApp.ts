import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { buildShellApp, type ShellApp } from '../app.js';
import { readShellConfig } from '../config.js';
import { repositoryContentStore, type ContentStore } from '../content/contentStore.js';

/** A shell app with default config for `app.inject` tests; pass feature plugins to test them. */
export async function buildTestApp(
  options: { content?: ContentStore; features?: Array<{ plugin: FastifyPluginAsync<never>; options?: unknown }> } = {},
): Promise<ShellApp> {
  return buildShellApp({
    config: readShellConfig({}),
    content: options.content ?? repositoryContentStore,
    search: { host: '127.0.0.1', port: 8108, protocol: 'http' },
    features: options.features ?? [],
  });
}

/** A CSRF token and the cookie it is bound to, as a browser would hold them. */
export async function fetchCsrf(app: FastifyInstance): Promise<{ token: string; cookie: string }> {
  const response = await app.inject({ method: 'GET', url: '/actions/blitz/csrf/token' });
  const setCookie = response.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .map((value) => String(value).split(';')[0])
    .join('; ');
  return { token: response.body, cookie };
}
