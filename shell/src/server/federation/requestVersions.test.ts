import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { describe, expect, it } from 'vitest';
import { pageCache, PageVersion, SHARED_PAGE_CACHE_CONTROL } from '../delivery/pageCache.js';
import { currentRequestVersions, requestVersions, requestVersionsOf } from './requestVersions.js';
import type { VersionSelectionPlugin } from './versionSelection.js';

/** A preview of mf-a at v9 under the cookie `preview=1`, a canary side of mf-b under `side=canary`. */
const chain: VersionSelectionPlugin[] = [
  { name: 'canary', select: (request, remote, current) => (remote === 'mf-b' && request.cookies.side ? { version: 'v2', reason: 'canary', cacheable: false } : current) },
  { name: 'preview', select: (request, remote, current) => (remote === 'mf-a' && request.cookies.preview ? { version: 'v9', reason: 'preview', cacheable: false } : current) },
  { name: 'assigns', select: (request, _remote, current) => (request.url.includes('assign') && request.setCookie('side', 'stable', { maxAge: 60 }), current) },
];

async function site() {
  const app = Fastify();
  await app.register(fastifyCookie);
  await app.register(requestVersions, { plugins: chain, remotes: ['mf-a', 'mf-b'], log: { error: () => {} } });
  await app.register(pageCache, { version: new PageVersion({ shellBuild: 'x' }), personalCacheControl: (request) => requestVersionsOf(request)?.cacheControl });
  // The page reads the choice from the request's scope, as renderPageWithIslands does (after an await).
  app.get('/', { config: { pageCache: 'shared' } }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return { versions: Object.fromEntries([...(currentRequestVersions()?.choices ?? [])].map(([remote, choice]) => [remote, choice.version])) };
  });
  return app;
}

describe('the version selection of a request', () => {
  it('gives the page renderer each remote\'s choice; a page of live builds stays shared with its ETag', async () => {
    const app = await site();
    const live = await app.inject({ url: '/' });
    expect(live.json()).toEqual({ versions: { 'mf-a': null, 'mf-b': null } });
    expect(live.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    expect(live.headers.etag).toMatch(/^W\//);
    expect((await app.inject({ url: '/', headers: { 'if-none-match': live.headers.etag as string } })).statusCode).toBe(304);
    await app.close();
  });

  it('sends a preview page private, no-store without an ETag, and never answers it with the live page\'s 304', async () => {
    const app = await site();
    const etag = (await app.inject({ url: '/' })).headers.etag as string;
    const preview = await app.inject({ url: '/', cookies: { preview: '1' }, headers: { 'if-none-match': etag } });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({ versions: { 'mf-a': 'v9', 'mf-b': null } });
    expect(preview.headers['cache-control']).toBe('private, no-store');
    expect(preview.headers.etag).toBeUndefined();
    const both = await app.inject({ url: '/', cookies: { preview: '1', side: 'canary' } });
    expect(both.headers['cache-control']).toBe('private, no-store');
    const canary = await app.inject({ url: '/', cookies: { side: 'canary' } });
    expect(canary.json()).toEqual({ versions: { 'mf-a': null, 'mf-b': 'v2' } });
    expect(canary.headers['cache-control']).toBe('private');
    await app.close();
  });

  it('lets a plugin set a cookie on the answer (HttpOnly, SameSite=Lax, path / by default)', async () => {
    const app = await site();
    const answer = await app.inject({ url: '/?assign' });
    expect(String(answer.headers['set-cookie'])).toMatch(/^side=stable; Max-Age=60; Path=\/; HttpOnly; SameSite=Lax/);
    await app.close();
  });
});
