import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The browser bundles the pages load: InstantSearch.js and typesense-instantsearch-adapter as published (UMD). */
const SCRIPTS: Record<string, string> = {
  '/instantsearch.js': require.resolve('instantsearch.js/dist/instantsearch.production.min.js'),
  '/adapter.js': require.resolve('typesense-instantsearch-adapter/dist/typesense-instantsearch-adapter.min.js'),
};

/**
 * A free loopback port for the pages, chosen before the search server starts: the server answers
 * CORS only for the origins it is given (`SEARCH_ALLOWED_ORIGINS`), so the pages' origin must be
 * known up front.
 */
export async function reservePageOrigin(): Promise<{ port: number; origin: string }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return { port, origin: `http://127.0.0.1:${port}` };
}

/** A page description: widgets are set up by `script`, which sees `searchClient` and `instantsearch`. */
export interface InstantSearchPage {
  /** Markup of the page body (widget containers). */
  body: string;
  /** Page script; runs after both bundles loaded, with `adapterOptions` (JSON) in scope. */
  script: string;
  /** Options passed to `new TypesenseInstantSearchAdapter(…)` (server is filled in). */
  adapterOptions: Record<string, unknown>;
}

/**
 * Serves InstantSearch.js pages from a loopback port and drives them in Chromium
 * (playwright-core, Debian's /usr/bin/chromium or CHROMIUM_PATH). Pages talk to the search
 * server under test through typesense-instantsearch-adapter, exactly as a site would.
 */
export class InstantSearchHarness {
  private server: Server | undefined;
  private browser: Browser | undefined;
  private pages = new Map<string, string>();
  private origin = '';

  /**
   * @param searchUrl the search server the pages talk to (or set it after `start` with `connect`)
   * @param searchKey the key the pages search with
   * @param port where the pages are served (`reservePageOrigin`); default any free port.
   */
  constructor(private searchUrl: string, private searchKey: string, private readonly port = 0) {}

  /** The pages' origin (`http://127.0.0.1:<port>`), once started. */
  get pageOrigin(): string {
    return this.origin;
  }

  /** Points the pages opened from now on at `searchUrl` with `searchKey` (a server started after the pages' origin was known). */
  connect(searchUrl: string, searchKey: string): void {
    this.searchUrl = searchUrl;
    this.searchKey = searchKey;
  }

  async start(): Promise<void> {
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}; install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const script = SCRIPTS[path];
      const html = this.pages.get(path);
      if (script) {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        res.end(readFileSync(script));
      } else if (html) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  }

  async close(): Promise<void> {
    await this.browser?.close();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Opens the page in a fresh context; returns it with the search requests it sent (bodies). */
  async open(name: string, page: InstantSearchPage): Promise<{ page: Page; searches: unknown[]; errors: string[] }> {
    const url = new URL(this.searchUrl);
    const adapterOptions = {
      ...page.adapterOptions,
      server: {
        apiKey: this.searchKey,
        nodes: [{ host: url.hostname, port: Number(url.port), protocol: url.protocol.replace(':', '') }],
        cacheSearchResultsForSeconds: 0,
      },
    };
    this.pages.set(`/${name}.html`, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body>
${page.body}
<script src="/instantsearch.js"></script>
<script src="/adapter.js"></script>
<script>
  const Adapter = window.TypesenseInstantSearchAdapter.default ?? window.TypesenseInstantSearchAdapter;
  const adapterOptions = ${JSON.stringify(adapterOptions)};
  const searchClient = new Adapter(adapterOptions).searchClient;
  ${page.script}
</script></body></html>`);
    const context = await (this.browser as Browser).newContext();
    const browserPage = await context.newPage();
    const searches: unknown[] = [];
    browserPage.on('request', (request) => {
      if (request.url().startsWith(this.searchUrl) && request.method() === 'POST') searches.push(request.postDataJSON());
    });
    const errors: string[] = [];
    browserPage.on('pageerror', (error) => errors.push(error.message));
    browserPage.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await browserPage.goto(`${this.origin}/${name}.html`);
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
    return { page: browserPage, searches, errors };
  }
}
