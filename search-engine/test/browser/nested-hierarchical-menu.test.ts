import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type Target, startTarget, uniqueName } from '../support/target.js';
import { InstantSearchHarness, reservePageOrigin } from './instantsearch-page.js';

const PRODUCTS = [
  { id: 'p1', name: 'Dune', hierarchicalCategories: { lvl0: 'Books', lvl1: 'Books > Fiction' } },
  { id: 'p2', name: 'Cosmos', hierarchicalCategories: { lvl0: 'Books', lvl1: 'Books > Science' } },
  { id: 'p3', name: 'Foundation', hierarchicalCategories: { lvl0: 'Books', lvl1: 'Books > Fiction' } },
  { id: 'p4', name: 'Desk Lamp', hierarchicalCategories: { lvl0: 'Home', lvl1: 'Home > Lighting' } },
];

describe('InstantSearch.js page: hierarchical menu over nested fields (Chromium, adapter 3.0.2)', () => {
  let target: Target;
  let harness: InstantSearchHarness;
  let products: string;
  beforeAll(async () => {
    const pages = await reservePageOrigin();
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: pages.origin });
    products = uniqueName('nested_page');
    await http(target.url, 'POST', '/collections', {
      key: target.adminKey,
      body: { name: products, enable_nested_fields: true, fields: [{ name: 'name', type: 'string' }, { name: 'hierarchicalCategories', type: 'object', facet: true }] },
    });
    await http(target.url, 'POST', `/collections/${products}/documents/import`, { key: target.adminKey, rawBody: PRODUCTS.map((p) => JSON.stringify(p)).join('\n') });
    harness = new InstantSearchHarness(target.url, target.searchKey, pages.port);
    await harness.start();
  });
  afterAll(async () => {
    await harness?.close();
    await http(target.url, 'DELETE', `/collections/${products}`, { key: target.adminKey });
    await target.close();
  });

  it('lists the top level with counts, opens a level and filters the hits by it', async () => {
    const { page, searches, errors } = await harness.open('hierarchical', {
      adapterOptions: { additionalSearchParameters: { query_by: 'name' } },
      body: '<nav id="menu"></nav><div id="hits"></div>',
      script: `
        const search = instantsearch({ indexName: ${JSON.stringify(products)}, searchClient });
        search.addWidgets([
          instantsearch.widgets.hierarchicalMenu({ container: '#menu', attributes: ['hierarchicalCategories.lvl0', 'hierarchicalCategories.lvl1'] }),
          instantsearch.widgets.hits({ container: '#hits', templates: { item: (hit, { html }) => html\`<article data-id="\${hit.id}">\${hit.name}</article>\` } }),
        ]);
        search.start();
      `,
    });
    const items = () =>
      page.locator('#menu .ais-HierarchicalMenu-item').evaluateAll((nodes) =>
        nodes.map((node) => `${node.querySelector(':scope > div .ais-HierarchicalMenu-label, :scope > a .ais-HierarchicalMenu-label')?.textContent}:${node.querySelector(':scope > div .ais-HierarchicalMenu-count, :scope > a .ais-HierarchicalMenu-count')?.textContent}`),
      );
    await page.locator('#menu .ais-HierarchicalMenu-item').first().waitFor({ timeout: 8000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}; page errors: ${errors.join('; ')}`);
    });
    expect(await items()).toEqual(['Books:3', 'Home:1']);

    await page.locator('#menu .ais-HierarchicalMenu-link').filter({ hasText: 'Books' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#hits article').length === 3);
    expect(await items()).toEqual(['Books:3', 'Fiction:2', 'Science:1', 'Home:1']);

    await page.locator('#menu .ais-HierarchicalMenu-link').filter({ hasText: 'Fiction' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#hits article').length === 2);
    expect(await page.locator('#hits article').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id')).sort())).toEqual(['p1', 'p3']);
    expect(searches.some((body) => JSON.stringify(body).includes('hierarchicalCategories.lvl1:=[`Books > Fiction`]'))).toBe(true);
  });
});
