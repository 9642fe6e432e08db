// The team services' pages stream like the shell's own (issue 37): a shared page a service declares
// (`pages`, the shared watchlist's kind) and a form page (`formPages`, the contact form's kind) send
// their head, the header and the service's content before an island still rendering, on real
// sockets, with the same cache rule as the shell's pages (`markPageStart`) — and a form page keeps
// its own (`no-store`, its token's cookie), streamed or whole. The island's render waits for a gate
// the test opens only once the head arrived: a shell that held the page could not pass.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { PAGE_FRAGMENT_MEDIA_TYPE, pageFragmentIslandMarker, SERVICE_FORM_PAGE_PATHS, type IslandServerModule, type PageFragment } from 'contracts';
import { FORM_TOKEN_HEADER } from '@khs/team-service/edge';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readShellConfig } from '../config.js';
import { PRIVATE_CACHE_CONTROL, SHARED_PAGE_CACHE_CONTROL, STREAMED_PAGE_CACHE_CONTROL } from '../delivery/pageCache.js';
import { ServerIslands } from '../federation/serverIslands.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { fakeFederation } from '../testing/fakeFederation.js';
import { decodedChunks, getOverSocket } from '../testing/streamedAnswer.js';
import { formPageRoutes } from './formPageRoutes.js';
import { serviceFragmentPages } from './serviceFragmentPages.js';

const CONTACT_FORM = readShellConfig({}).services.contact.edgePolicy.formPages![0]!;
const FORM_PATHS = SERVICE_FORM_PAGE_PATHS[CONTACT_FORM.page];
const SLOW_HTML = '<p>the slow island rendered</p>';
const BEFORE_ISLAND = '<p>the content before the island</p>';
const AFTER_ISLAND = '<p>the content after the island</p>';

/** A gate the slow island's render waits for: open unless `hold()` was called, until `open()`. */
function gate() {
  let held: Promise<void> | undefined;
  let release = () => {};
  return {
    passed: () => held ?? Promise.resolve(),
    hold: () => void (held = new Promise<void>((resolve) => (release = resolve))),
    open: () => {
      release();
      held = undefined;
    },
  };
}

/** A fragment with one island of `island` between two paragraphs (and `extraHtml` before it: a form's token). */
function fragmentWith(island: string, extraHtml = ''): PageFragment {
  const element = `<div class="island" data-island="${island}" data-props="{}">${pageFragmentIslandMarker(0)}</div>`;
  return {
    title: 'A service page',
    pageClass: 'page-service',
    html: `${extraHtml}${BEFORE_ISLAND}${element}${AFTER_ISLAND}`,
    islands: [{ name: island, props: {}, placeholderHtml: '<p>the placeholder</p>' }],
  };
}

describe("a team service's pages stream like the shell's own", () => {
  const slow = gate();
  /** Whether `mf-flaky/Flaky` fails its render (else it waits for the gate, as the slow island). */
  let flakyFails = false;
  let service: Server;
  let app: FastifyInstance;
  let origin: string;

  beforeAll(async () => {
    // The service: a shared page per id (the island it holds is named by the id), the form's content with the token it was given.
    service = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://service.test');
      const token = String(request.headers[FORM_TOKEN_HEADER] ?? '');
      const island = url.pathname.endsWith('/flaky') ? 'mf-flaky/Flaky' : 'mf-slow/Slow';
      const fragment = url.pathname === FORM_PATHS.content ? fragmentWith(island, `<form method="post"><input type="hidden" name="_csrf" value="${token}"/></form>`) : fragmentWith(island);
      response.writeHead(200, { 'content-type': PAGE_FRAGMENT_MEDIA_TYPE }).end(JSON.stringify(fragment));
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const upstream = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const slowModule: Partial<IslandServerModule> = { render: async () => (await slow.passed(), { html: SLOW_HTML }) };
    const flakyModule: Partial<IslandServerModule> = {
      render: async () => {
        if (flakyFails) throw new Error('the flaky remote fails');
        await slow.passed();
        return { html: SLOW_HTML };
      },
    };
    // Every other island (the layout's slots) renders at once.
    const federation = fakeFederation((remote, module) =>
      remote === 'mf-slow' ? slowModule : remote === 'mf-flaky' ? flakyModule : { render: async () => ({ html: `<span>${module}</span>` }) },
    );
    const unavailable = { title: 'Shared', text: 'Down.' };
    const shell = await buildTestApp({
      // A budget no loaded machine misses: only the gate holds an island.
      islands: new ServerIslands({ federation, budgetMs: 30_000 }),
      features: [
        ({ pageConfig, runtimeUrl, streamIslandPage }) => ({
          plugin: serviceFragmentPages,
          options: { upstreams: [upstream], edgeKey: 'edge-key-0123456789', responseTimeoutMs: 5000, pages: [{ page: 'sharedWatchlist', sharedCache: true, unavailable }], pageConfig, runtimeUrl, streamIslandPage },
        }),
        ({ pageConfig, runtimeUrl, streamIslandPage }) => ({
          plugin: formPageRoutes,
          options: { form: CONTACT_FORM, upstreams: [upstream], connectTimeoutMs: 5000, responseTimeoutMs: 5000, edgeKey: 'edge-key-0123456789', pageConfig, runtimeUrl, streamIslandPage },
        }),
      ],
    });
    app = shell.app;
    await app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    slow.open();
    await app?.close();
    await new Promise((resolve) => service?.close(resolve));
  });
  beforeEach(() => slow.open());

  /** GETs `path` with the slow island held; opens the gate once the content before the island arrived. */
  async function headBeforeIsland(path: string, encoding: string) {
    slow.hold();
    const response = await getOverSocket(`${origin}${path}`, { 'accept-encoding': encoding });
    const { first, rest } = await decodedChunks(response, BEFORE_ISLAND);
    slow.open();
    return { response, first, html: `${first}${await rest()}` };
  }

  /** The head (with the island's styles, named before it rendered) and the header came before the island, the page in document order. */
  function expectStreamedInOrder(first: string, html: string) {
    expect(first.indexOf('<link rel="stylesheet" href="https://cdn.test/mf-slow.css"/>')).toBeGreaterThan(0);
    expect(first.indexOf('<link rel="stylesheet" href="https://cdn.test/mf-slow.css"/>')).toBeLessThan(first.indexOf('</head>'));
    expect(first).toContain('</header>');
    expect(first).not.toContain(SLOW_HTML);
    expect(html.indexOf(SLOW_HTML)).toBeGreaterThan(html.indexOf(BEFORE_ISLAND));
    expect(html.indexOf(AFTER_ISLAND)).toBeGreaterThan(html.indexOf(SLOW_HTML));
    expect(html.indexOf('<footer')).toBeGreaterThan(html.indexOf(AFTER_ISLAND));
    expect(html).not.toContain('the placeholder');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  }

  it.each(['br', 'gzip', 'identity'])(
    "a shared service page with an island still rendering (%s): head, header and the service's content first, then the island; shared briefly, no ETag, unbuffered",
    async (encoding) => {
      const { response, first, html } = await headBeforeIsland('/watchlist/shared/slow', encoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe(STREAMED_PAGE_CACHE_CONTROL);
      expect(response.headers.etag).toBeUndefined();
      expect(response.headers['x-accel-buffering']).toBe('no');
      expectStreamedInOrder(first, html);
    },
  );

  it('a shared service page whose islands all rendered within the head budget: whole, shared, with its ETag and a 304', async () => {
    const response = await app.inject({ method: 'GET', url: '/watchlist/shared/quick' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(SLOW_HTML);
    expect(response.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    expect(response.headers.etag).toMatch(/^W\//);
    expect(response.headers['x-accel-buffering']).toBeUndefined();
    const again = await app.inject({ method: 'GET', url: '/watchlist/shared/quick', headers: { 'if-none-match': String(response.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('a shared service page whose island failed: private, no ETag; while its remote is known to be failing, private from the first byte even streamed', async () => {
    flakyFails = true;
    const failed = await app.inject({ method: 'GET', url: '/watchlist/shared/flaky' });
    expect(failed.body).toContain('the placeholder');
    expect(failed.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
    expect(failed.headers.etag).toBeUndefined();
    flakyFails = false;
    const { response, html } = await headBeforeIsland('/watchlist/shared/flaky', 'br');
    expect(response.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(html).toContain(SLOW_HTML);
  });

  it.each(['br', 'identity'])(
    'a form page with an island still rendering (%s): streamed the same way, and still no-store with its fresh token and cookie',
    async (encoding) => {
      const { response, first, html } = await headBeforeIsland(FORM_PATHS.page, encoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.etag).toBeUndefined();
      expect(response.headers['set-cookie']).toBeDefined();
      expect(response.headers['x-accel-buffering']).toBe('no');
      expect(first).toMatch(/name="_csrf" value="[^"]+"/);
      expectStreamedInOrder(first, html);
    },
  );

  it('a form page whose islands rendered within the head budget: whole, no-store as before', async () => {
    const response = await app.inject({ method: 'GET', url: FORM_PATHS.page });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(SLOW_HTML);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-accel-buffering']).toBeUndefined();
  });
});
