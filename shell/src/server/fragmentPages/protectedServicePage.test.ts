// A page a service keeps behind a token (the search team's editors' report): the edge forwards the
// visitor's Authorization header and the service's challenge, and nothing keeps the page; a page
// not declared so never gets the header.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { examplePageConfig, PAGE_FRAGMENT_MEDIA_TYPE, type PageFragment } from 'contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceFragmentPages } from './serviceFragmentPages.js';

const GOOD = 'Basic ZWRpdG9yOnRva2Vu';
const fragment = (text: string): PageFragment => ({ title: 'Report', pageClass: 'page-report', html: `<p>${text}</p>`, islands: [] });

describe('a service page behind a token (forwardsAuthorization)', () => {
  let service: Server;
  let app: FastifyInstance;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    // The service: 401 with a challenge without the header, 403 for a wrong one, the figures for the right one.
    service = createServer((request, response) => {
      seen.push(request.headers);
      const authorization = request.headers.authorization;
      const [status, body] = authorization === undefined ? [401, 'sign in'] : authorization === GOOD ? [200, 'figures'] : [403, 'wrong token'];
      if (status === 401) response.setHeader('www-authenticate', 'Basic realm="khs-editors"');
      response.writeHead(status, { 'content-type': PAGE_FRAGMENT_MEDIA_TYPE }).end(JSON.stringify(fragment(body)));
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const upstream = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    app = Fastify();
    await app.register(serviceFragmentPages, {
      upstreams: [upstream],
      edgeKey: 'edge-key-0123456789',
      responseTimeoutMs: 5000,
      pages: [
        { page: 'searchReport', robots: 'noindex', forwardsAuthorization: true, unavailable: { title: 'Report', text: 'Down.' } },
        { page: 'sharedWatchlist', unavailable: { title: 'Shared', text: 'Down.' } },
      ],
      pageConfig: examplePageConfig(),
      runtimeUrl: '/assets/shell-runtime.js',
    });
  });
  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => service?.close(resolve));
  });

  it('without a token: the service\'s 401 and its challenge reach the browser, not stored', async () => {
    const response = await app.inject({ method: 'GET', url: '/editors/search-report' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic realm="khs-editors"');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('<p>sign in</p>');
    expect(response.body).not.toContain('figures');
  });

  it('the right token is forwarded with the query: the page; a wrong one: 403, no challenge', async () => {
    const page = await app.inject({ method: 'GET', url: '/editors/search-report?from=2026-11-01&to=2026-11-02', headers: { authorization: GOOD } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<p>figures</p>');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(seen.at(-1)?.authorization).toBe(GOOD);
    const wrong = await app.inject({ method: 'GET', url: '/editors/search-report', headers: { authorization: 'Basic d3Jvbmc=' } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.headers['www-authenticate']).toBeUndefined();
    expect(wrong.body).toContain('<p>wrong token</p>');
  });

  it('a page not declared so never gets the visitor\'s Authorization header', async () => {
    await app.inject({ method: 'GET', url: '/watchlist/shared/abc', headers: { authorization: GOOD } });
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });
});
