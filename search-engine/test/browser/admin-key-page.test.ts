import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkImport } from '../support/bulk-import.js';
import { fixtureArticles } from '../support/fixtures.js';
import { http, type Target, startTarget, uniqueName } from '../support/target.js';
import { InstantSearchHarness } from './instantsearch-page.js';

// Issue 39: a Typesense client's page works unchanged against the standalone server (its defaults,
// as `npm start -w @khs/search-engine` runs it): a page on an allowed origin that searches with the
// admin key through typesense-instantsearch-adapter, as the adapter's own examples do, gets results.
describe('InstantSearch.js page on an allowed origin, searching with the admin key (Chromium)', () => {
  let target: Target;
  let harness: InstantSearchHarness;
  let collection: string;
  beforeAll(async () => {
    // The pages' server listens first (port 0), so its origin is known to the search server without a window.
    harness = new InstantSearchHarness('', '');
    await harness.start();
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: harness.pageOrigin });
    harness.connect(target.url, target.adminKey);
    collection = uniqueName('articles_admin_key_page');
    const imported = await bulkImport({ url: target.url, apiKey: target.adminKey, collectionName: collection, documents: fixtureArticles, searchSets: { synonymSets: [], curationSets: [] } });
    expect(imported).toEqual({ imported: fixtureArticles.length, failed: 0 });
  });
  afterAll(async () => {
    await harness?.close();
    if (target) {
      await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
      await target.close();
    }
  });

  it('shows hits for a typed query; the page sent its searches cross-origin (Origin, Sec-Fetch-Site: same-site) and got 200 with CORS', async () => {
    const { page, errors } = await harness.open('admin-key', {
      adapterOptions: { additionalSearchParameters: { query_by: 'title,headline,intro,content' } },
      body: '<div id="searchbox"></div><div id="hits"></div>',
      script: `
        const search = instantsearch({ indexName: ${JSON.stringify(collection)}, searchClient });
        search.addWidgets([
          instantsearch.widgets.searchBox({ container: '#searchbox', searchAsYouType: true }),
          instantsearch.widgets.hits({ container: '#hits', templates: { item: (hit, { html }) => html\`<article data-id="\${hit.id}">\${hit.title}</article>\` } }),
        ]);
        search.start();
      `,
    });
    const answers: Array<{ status: number; cors: string | null; origin: string | undefined; fetchSite: string | undefined; keyInQuery: boolean }> = [];
    page.on('response', async (response) => {
      if (!response.url().startsWith(`${target.url}/multi_search`)) return;
      try {
        const sent = await response.request().allHeaders();
        answers.push({
          status: response.status(),
          cors: await response.headerValue('access-control-allow-origin'),
          origin: sent.origin,
          fetchSite: sent['sec-fetch-site'],
          keyInQuery: new URL(response.url()).searchParams.get('x-typesense-api-key') === target.adminKey,
        });
      } catch (error) {
        // A search still answering as the test closes its page (a busy machine) can no longer be read: not one to check.
        if (!page.isClosed()) throw error;
      }
    });
    await page.locator('.ais-SearchBox-input').fill('negotiation');
    await page.waitForFunction(() => document.querySelector('#hits article[data-id="a3"]') !== null);
    expect(await page.locator('#hits article').count()).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.at(-1)).toEqual({ status: 200, cors: harness.pageOrigin, origin: harness.pageOrigin, fetchSite: 'same-site', keyInQuery: true });
    // (The page's only console error is its favicon's 404.)
    expect(errors.filter((error) => !/status of 404/.test(error))).toEqual([]);
  });
});
