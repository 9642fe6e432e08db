// Page weight (issue 14): one federation runtime per page, every remote still boots alone on its
// standalone page, and what goes over the wire is compressed and cached the right way.
import { gzipSync } from 'node:zlib';
import { listArticles, listSurveys } from '@khs/content';
import { expect, islandsSettled, test, wakeInteractionIslands, watchPage } from '../harness/fixtures.js';
import { REMOTE_NAMES, SEARCH_API_KEY } from '../harness/stack.js';

function articleWithSurvey() {
  const surveys = new Set(listSurveys().map((survey) => survey.formHandle));
  const article = listArticles().find((candidate) => candidate.surveyHandle && surveys.has(candidate.surveyHandle));
  if (!article) throw new Error('no article with a survey in the seeded content');
  return article;
}

/** Gzip (-9) bytes a remote container may weigh: its own chunk maps, loaders and share data, nothing of the runtime (issue 26). */
const CONTAINER_BUDGET_GZIP = 4 * 1024;

const HASHED = /\.[0-9a-f]{8}\.(js|css)$/;
/** A remote's browser entry: content-hashed, named by its manifest. */
const REMOTE_ENTRY = /\/remoteEntry\.[0-9a-f]{8}\.js$/;

test.describe('one federation runtime per page', () => {
  test('the article page loads the runtime once: remote entries are built against the shell\'s', async ({ page, stack, problems }) => {
    const scripts: Array<{ url: string; body: string }> = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push({ url: response.url(), body: await response.text().catch(() => '') });
    });
    await page.goto(new URL(articleWithSurvey().url, stack.url).href);
    await islandsSettled(page);
    await wakeInteractionIslands(page);
    const states = await page.locator('[data-island]').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-island-state')));
    expect(states.length).toBeGreaterThan(3);
    expect(states.every((state) => state === 'mounted')).toBe(true);
    const entries = scripts.filter((script) => REMOTE_ENTRY.test(new URL(script.url).pathname));
    expect(entries.map((entry) => new URL(entry.url).origin).sort()).toEqual(REMOTE_NAMES.map((name) => stack.remotes[name]).sort());
    for (const entry of entries) {
      // The runtime is taken from the page: the bundler runtime (with runtime-core behind it) from
      // the global the shell's runtime provides (tooling/rspack-preset/provideBundlerRuntime.mjs)...
      expect(entry.body).toContain('_KHS_FEDERATION_BUNDLER_RUNTIME');
      expect(entry.body).not.toContain('RUNTIME-001');
      // ...and so is the federation setup every container ran (tooling/rspack-preset/containerSetup.mjs)...
      expect(entry.body).toContain('.setupContainer(');
      expect(entry.body).not.toContain('consumesLoadingModuleToHandlerMapping');
      // ...so a remote entry is a container, not a copy of the runtime (about 110 KB raw with its
      // own runtime, 45 KB with only runtime-core taken from the page, 14 KB gzip with its own
      // bundler runtime, about 4.5 KB with its own setup; at most 4 KB gzip now).
      expect(gzipSync(entry.body, { level: 9 }).length, new URL(entry.url).pathname).toBeLessThanOrEqual(CONTAINER_BUDGET_GZIP);
    }
    // Still one React for every island: a click in one remote reaches another.
    await page.getByRole('button', { name: /watchlist/i }).first().click();
    await expect(page.locator('.khs-watchlist-link__badge')).toHaveText('1');
    expect(problems.errors).toEqual([]);
    expect(problems.failedResponses).toEqual([]);
  });
});

test.describe('standalone pages boot each remote alone', () => {
  const checks: Record<(typeof REMOTE_NAMES)[number], { query?: (searchUrl: string) => string; ready: string }> = {
    'mf-search': {
      query: (searchUrl) => `?server=${encodeURIComponent(searchUrl)}&key=${SEARCH_API_KEY}`,
      ready: '#header-search input[role="combobox"]',
    },
    'mf-survey': { ready: '#survey-from-props form.khs-survey--interactive input[type="radio"]' },
    'mf-watchlist': { ready: '#watchlist-button-1 button' },
    'mf-widgets': { ready: '[role="tablist"] [role="tab"]' },
  };
  for (const name of REMOTE_NAMES) {
    test(`${name}: /standalone/ provides the runtime and mounts the remote's islands`, async ({ browser, stack }) => {
      const page = await browser.newPage();
      const problems = watchPage(page);
      const origin = stack.remotes[name];
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      await page.goto(`${origin}/standalone/${checks[name].query?.(stack.searchUrl) ?? ''}`);
      await expect(page.locator(checks[name].ready).first()).toBeVisible();
      // The page's own host runtime, then the remote's entry from its manifest (one folder up).
      expect(scripts.some((url) => url.startsWith(`${origin}/`) && REMOTE_ENTRY.test(url))).toBe(true);
      expect(scripts.some((url) => url.startsWith(`${origin}/standalone/`))).toBe(true);
      // Every script, style and manifest arrived (the demo pages have no shell for images and calls).
      expect(problems.failedResponses.filter((line) => /\.(js|css|json)$/.test(line))).toEqual([]);
      // (The watchlist demo's product calls need a shell: their 404s are logged, as before.)
      expect(problems.errors.filter((error) => !error.startsWith('Failed to load resource') && !/request failed with status 404/.test(error))).toEqual([]);
      await page.close();
    });
  }
});

test.describe('compressed, cacheable delivery', () => {
  const get = (url: string, encoding = 'br, gzip') => fetch(url, { headers: { 'accept-encoding': encoding } });

  test('the page HTML is compressed on the fly, brotli or gzip as the browser accepts', async ({ stack }) => {
    const url = new URL(articleWithSurvey().url, stack.url).href;
    const br = await get(url, 'br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(await br.text()).toContain('<html');
    const gzip = await get(url, 'gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    const plain = await get(url, 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    // The same page, whatever the encoding.
    expect((await gzip.text()).length).toBe((await plain.text()).length);
  });

  test("the shell's runtime is sent precompressed and cached for good (its URL changes with its content)", async ({ stack }) => {
    const html = await (await fetch(new URL(articleWithSurvey().url, stack.url))).text();
    const runtimePath = /src="(\/assets\/shell-runtime\.js\?v=[0-9a-f]+)"/.exec(html)?.[1];
    expect(runtimePath).toBeDefined();
    const response = await get(new URL(runtimePath!, stack.url).href);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(response.headers.get('cache-control')).toContain('immutable');
    const body = await response.text();
    expect(body).toContain('provide');
    const raw = await get(new URL(runtimePath!, stack.url).href, 'identity');
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect((await raw.text()).length).toBe(body.length);
  });

  test('a remote\'s CDN: the manifest revalidated with an ETag, the hashed entry and chunks immutable and precompressed', async ({ stack }) => {
    const origin = stack.remotes['mf-watchlist'];
    const manifestResponse = await get(`${origin}/mf-manifest.json`);
    expect(manifestResponse.headers.get('content-encoding')).toBe('br');
    expect(manifestResponse.headers.get('vary')).toBe('Accept-Encoding');
    expect(manifestResponse.headers.get('cache-control')).toBe('no-cache');
    const etag = manifestResponse.headers.get('etag');
    expect(etag).toBeTruthy();
    const manifest = (await manifestResponse.json()) as {
      metaData: { remoteEntry: { path: string; name: string } };
      exposes: Array<{ assets: { js: { sync: string[] } } }>;
    };
    const again = await fetch(`${origin}/mf-manifest.json`, { headers: { 'accept-encoding': 'br', 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(`/${manifest.metaData.remoteEntry.name}`).toMatch(REMOTE_ENTRY);
    const entry = await get(`${origin}/${manifest.metaData.remoteEntry.path}${manifest.metaData.remoteEntry.name}`, 'gzip');
    expect(entry.headers.get('content-encoding')).toBe('gzip');
    expect(entry.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const chunk = manifest.exposes.flatMap((expose) => expose.assets.js.sync).find((file) => HASHED.test(file));
    expect(chunk).toBeDefined();
    const chunkResponse = await get(`${origin}/${chunk}`);
    expect(chunkResponse.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(chunkResponse.headers.get('content-encoding')).toBe('br');
  });
});

test.describe('islands hydrate when needed', () => {
  test('the survey below the fold loads only when scrolled to, and hydrates the server HTML in place', async ({ page, stack }) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    const surveyRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(stack.remotes['mf-survey'])) surveyRequests.push(request.url());
    });
    const url = new URL(articleWithSurvey().url, stack.url).href;
    // The shell renders the survey on the server once it has loaded the survey's server build.
    await expect.poll(async () => (await (await fetch(url)).text()).includes('khs-survey--interactive'), { timeout: 15_000 }).toBe(true);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(url);
    const survey = page.locator('[data-island="mf-survey/Survey"]');
    await expect(survey).toHaveAttribute('data-island-hydrate', 'visible');
    // Above the fold: the watchlist link hydrates at once; the header search (a working GET form
    // until then) waits for the reader to reach for it.
    await expect(page.locator('[data-island="mf-watchlist/WatchlistLink"]')).toHaveAttribute('data-island-state', 'mounted');
    const headerSearch = page.locator('[data-island="mf-search/HeaderSearch"]');
    await expect(headerSearch).toHaveAttribute('data-island-waiting', 'interaction');
    await page.waitForTimeout(500);
    expect(await survey.getAttribute('data-island-state')).toBeNull();
    expect(surveyRequests.filter((url) => url.endsWith('.js'))).toEqual([]);
    // The server's form is the node the browser hydrates: marked now, still there after mounting.
    await survey.locator('form.khs-survey--interactive').evaluate((form) => form.setAttribute('data-test-server-node', ''));
    await survey.scrollIntoViewIfNeeded();
    await expect(survey).toHaveAttribute('data-island-state', 'mounted');
    await expect(survey.locator('form.khs-survey--interactive[data-test-server-node]')).toHaveCount(1);
    expect(surveyRequests.some((url) => REMOTE_ENTRY.test(url))).toBe(true);
    await survey.getByRole('radio').first().check();
    await expect(survey.getByRole('radio').first()).toBeChecked();
    // The header search hydrates when the reader reaches for it.
    await headerSearch.locator('input').first().focus();
    await expect(headerSearch).toHaveAttribute('data-island-state', 'mounted');
    await expect(headerSearch).not.toHaveAttribute('data-island-waiting', /./);
    // No preload went unused, no hydration mismatch.
    expect(warnings).toEqual([]);
  });

  test('the first view\'s remote manifests and entries are preloaded in the page head', async ({ stack }) => {
    // The hashed entry is named by the manifest the shell's server has loaded (after its warm-up).
    const head = async () => {
      const html = await (await fetch(new URL('/search?q=leadership', stack.url))).text();
      return html.slice(0, html.indexOf('</head>'));
    };
    await expect.poll(async () => (await head()).includes('as="script"'), { timeout: 15_000 }).toBe(true);
    for (const name of ['mf-search', 'mf-watchlist'] as const) {
      const manifest = (await (await fetch(`${stack.remotes[name]}/mf-manifest.json`)).json()) as { metaData: { remoteEntry: { path: string; name: string } } };
      const { path, name: file } = manifest.metaData.remoteEntry;
      expect(await head()).toContain(`<link rel="preload" as="fetch" crossorigin="anonymous" href="${stack.remotes[name]}/mf-manifest.json"/>`);
      expect(await head()).toContain(`<link rel="preload" as="script" href="${stack.remotes[name]}/${path}${file}"/>`);
    }
    expect(await head()).not.toContain(`href="${stack.remotes['mf-survey']}/mf-manifest.json"/>`);
    // An article's first view hydrates only the watchlist at once: the search remote (header
    // search, on interaction) is not preloaded there.
    const article = await (await fetch(new URL(articleWithSurvey().url, stack.url))).text();
    const articleHead = article.slice(0, article.indexOf('</head>'));
    expect(articleHead).toMatch(new RegExp(`<link rel="preload" as="script" href="${stack.remotes['mf-watchlist']}/remoteEntry\\.[0-9a-f]{8}\\.js"/>`));
    expect(articleHead).not.toContain(`${stack.remotes['mf-search']}/remoteEntry.`);
    expect(articleHead).not.toContain(`href="${stack.remotes['mf-search']}/mf-manifest.json"/>`);
  });
});
