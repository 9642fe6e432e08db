import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkImport } from '../support/bulk-import.js';
import { fixtureArticles } from '../support/fixtures.js';
import { http, type Target, startTarget, uniqueName } from '../support/target.js';
import { InstantSearchHarness, reservePageOrigin } from './instantsearch-page.js';

describe('InstantSearch.js page: query rule banner from curation metadata, pinned hit first (Chromium)', () => {
  let target: Target;
  let harness: InstantSearchHarness;
  let collection: string;
  beforeAll(async () => {
    const pages = await reservePageOrigin();
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: pages.origin });
    collection = uniqueName('articles_banner');
    // The banner comes from a curation item's metadata; the pinned document is one the query alone would not rank first.
    const bannerSet = {
      name: uniqueName('banner_curations'),
      items: [
        {
          id: 'feedback-pick',
          rule: { query: 'feedback', match: 'contains' },
          // a5 does not contain "feedback": only the curation puts it first.
          includes: [{ id: 'a5', position: 1 }],
          metadata: { title: 'Plan with feedback', text: 'Our pick: short cycles, reviewed often.', url: '/articles/a5' },
        },
      ],
    };
    const imported = await bulkImport({
      url: target.url,
      apiKey: target.adminKey,
      collectionName: collection,
      documents: fixtureArticles,
      searchSets: { synonymSets: [], curationSets: [bannerSet] },
    });
    expect(imported).toEqual({ imported: fixtureArticles.length, failed: 0 });
    harness = new InstantSearchHarness(target.url, target.searchKey, pages.port);
    await harness.start();
  });
  afterAll(async () => {
    await harness?.close();
    await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
    await target.close();
  });

  it('shows the banner and the pinned document for "feedback", and neither for another query', async () => {
    const { page, searches } = await harness.open('banner', {
      adapterOptions: { additionalSearchParameters: { query_by: 'title,headline,intro,content' } },
      body: '<div id="searchbox"></div><div id="banner"></div><div id="hits"></div>',
      script: `
        const search = instantsearch({ indexName: ${JSON.stringify(collection)}, searchClient });
        search.addWidgets([
          instantsearch.widgets.searchBox({ container: '#searchbox', searchAsYouType: true }),
          instantsearch.widgets.queryRuleCustomData({
            container: '#banner',
            templates: {
              default: ({ items }, { html }) => items.map((item) => html\`<aside class="banner" aria-label="Editors' pick"><a href="\${item.url}">\${item.title}</a><p>\${item.text}</p></aside>\`),
            },
          }),
          instantsearch.widgets.hits({
            container: '#hits',
            templates: { item: (hit, { html }) => html\`<article data-id="\${hit.id}" data-curated="\${hit.curated ? 'yes' : 'no'}">\${hit.title}</article>\` },
          }),
        ]);
        search.start();
      `,
    });
    await page.locator('#hits article').first().waitFor();
    expect(await page.locator('.banner').count()).toBe(0);

    await page.locator('.ais-SearchBox-input').fill('feedback');
    const banner = page.locator('.banner');
    await banner.waitFor();
    expect(await banner.locator('a').textContent()).toBe('Plan with feedback');
    expect(await banner.locator('a').getAttribute('href')).toBe('/articles/a5');
    const first = page.locator('#hits article').first();
    expect(await first.getAttribute('data-id')).toBe('a5');
    expect(await first.getAttribute('data-curated')).toBe('yes');
    expect(searches.some((body) => JSON.stringify(body).includes('"q":"feedback"'))).toBe(true);

    await page.locator('.ais-SearchBox-input').fill('negotiation');
    await page.waitForFunction(() => document.querySelector('#hits article[data-id="a3"]') !== null);
    expect(await page.locator('.banner').count()).toBe(0);
    expect(await page.locator('#hits article[data-curated="yes"]').count()).toBe(0);
  });
});
