import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type Target, startTarget, uniqueName } from '../support/target.js';
import { InstantSearchHarness, reservePageOrigin } from './instantsearch-page.js';

const FIELDS = [
  { name: 'title', type: 'string' },
  { name: 'author', type: 'string', facet: true, optional: true },
  { name: 'genre', type: 'string[]', facet: true },
  { name: 'year', type: 'int32', facet: true },
];
const BOOKS = [
  { id: 'b1', title: 'The Silent Sea', author: 'Ann', genre: ['scifi'], year: 2001 },
  { id: 'b2', title: 'Sea of Stars', author: 'Ann', genre: ['scifi', 'space'], year: 2010 },
  { id: 'b3', title: 'Deep Sea Diving', author: 'Bob', genre: ['nonfiction'], year: 2005 },
  { id: 'b4', title: 'Stars Above', author: 'Cid', genre: ['space'], year: 2015 },
];
const FILMS = [
  { id: 'f1', title: 'Sea Wolves', author: 'Dee', genre: ['action'], year: 2012 },
  { id: 'f2', title: 'Silent Stars', author: 'Eve', genre: ['drama'], year: 1999 },
];

describe('InstantSearch.js pages through typesense-instantsearch-adapter 3.0.2 (Chromium): dynamic widgets, grouped hits, union', () => {
  let target: Target;
  let harness: InstantSearchHarness;
  let books: string;
  let films: string;
  const create = async (prefix: string, docs: unknown[]) => {
    const name = uniqueName(prefix);
    await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name, fields: FIELDS } });
    await http(target.url, 'POST', `/collections/${name}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
    return name;
  };
  beforeAll(async () => {
    const pages = await reservePageOrigin();
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: pages.origin });
    books = await create('books_page', BOOKS);
    films = await create('films_page', FILMS);
    harness = new InstantSearchHarness(target.url, target.searchKey, pages.port);
    await harness.start();
  });
  afterAll(async () => {
    await harness?.close();
    for (const name of [books, films]) await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  it('dynamic widgets ask for facet_by=* and render a refinement list per facet with its counts; refining filters', async () => {
    const { page, searches } = await harness.open('dynamic', {
      adapterOptions: {
        additionalSearchParameters: { query_by: 'title' },
        renderingContent: { facetOrdering: { facets: { order: ['author', 'genre'] } } },
      },
      body: '<div id="facets"></div><div id="hits"></div>',
      script: `
        const search = instantsearch({ indexName: ${JSON.stringify(books)}, searchClient });
        search.addWidgets([
          instantsearch.widgets.dynamicWidgets({
            container: '#facets',
            facets: ['*'],
            widgets: [],
            fallbackWidget: ({ container, attribute }) => instantsearch.widgets.panel({ templates: { header: () => attribute } })(instantsearch.widgets.refinementList)({ container, attribute }),
          }),
          instantsearch.widgets.hits({ container: '#hits', templates: { item: (hit, { html }) => html\`<article data-id="\${hit.id}">\${hit.title}</article>\` } }),
        ]);
        search.start();
      `,
    });
    await page.locator('.ais-RefinementList-item').first().waitFor();
    const lists = await page.locator('.ais-Panel').evaluateAll((panels) =>
      panels.map((panel) => ({
        header: panel.querySelector('.ais-Panel-header')?.textContent?.trim(),
        items: [...panel.querySelectorAll('.ais-RefinementList-item')].map((item) => `${item.querySelector('.ais-RefinementList-labelText')?.textContent}:${item.querySelector('.ais-RefinementList-count')?.textContent}`),
      })),
    );
    expect(lists).toEqual([
      { header: 'author', items: ['Ann:2', 'Bob:1', 'Cid:1'] },
      { header: 'genre', items: ['scifi:2', 'space:2', 'nonfiction:1'] },
    ]);
    expect(searches.some((body) => JSON.stringify(body).includes('"facet_by":"*"'))).toBe(true);
    await page.locator('.ais-Panel').nth(1).getByText('nonfiction').click();
    await page.waitForFunction(() => document.querySelectorAll('#hits article').length === 1);
    expect(await page.locator('#hits article').getAttribute('data-id')).toBe('b3');
  });

  it('grouped hits: one entry per author with the group members (group_by through the adapter)', async () => {
    const { page, errors } = await harness.open('grouped', {
      adapterOptions: { flattenGroupedHits: false, additionalSearchParameters: { query_by: 'title', group_by: 'author', group_limit: 2, sort_by: 'year:desc' } },
      body: '<div id="stats"></div><div id="hits"></div>',
      script: `
        const search = instantsearch({ indexName: ${JSON.stringify(books)}, searchClient });
        search.addWidgets([
          instantsearch.widgets.stats({ container: '#stats', templates: { text: (data, { html }) => html\`<span class="found">\${data.nbHits}</span>\` } }),
          instantsearch.widgets.hits({
            container: '#hits',
            templates: {
              item: (hit, { html }) => html\`<section data-group="\${hit.group_key.join('|')}"><h2>\${hit.author}</h2><ul>\${hit._grouped_hits.map((member) => html\`<li>\${member.title}</li>\`)}</ul></section>\`,
            },
          }),
        ]);
        search.start();
      `,
    });
    await page.locator('#hits section').first().waitFor({ timeout: 5000 }).catch(async (error: unknown) => {
      throw new Error(`${String(error)}; page errors: ${errors.join('; ')}; hits: ${await page.locator('#hits').innerHTML()}`);
    });
    const groups = await page.locator('#hits section').evaluateAll((sections) => sections.map((s) => `${s.getAttribute('data-group')}: ${[...s.querySelectorAll('li')].map((li) => li.textContent).join(', ')}`));
    expect(groups).toEqual(['Cid: Stars Above', 'Ann: Sea of Stars, The Silent Sea', 'Bob: Deep Sea Diving']);
    expect(await page.locator('.found').textContent()).toBe('3');
  });

  it('union results: books and films in one ranked list, each hit labelled with its collection', async () => {
    // The page sends the union through the adapter's own typesense client (adapter 3.x also has a
    // `union` option; this keeps the test about the server's union answer) and hands InstantSearch the merged hits.
    const { page, searches } = await harness.open('union', {
      adapterOptions: { additionalSearchParameters: { query_by: 'title' } },
      body: '<div id="searchbox"></div><ol id="hits"></ol>',
      script: `
        const adapter = new Adapter(adapterOptions);
        const unionClient = {
          async search(requests) {
            const query = requests[0]?.params?.query || '*';
            const answer = await adapter.typesenseClient.multiSearch.perform({
              union: true,
              searches: ${JSON.stringify([books, films])}.map((collection) => ({ collection, q: query, query_by: 'title', sort_by: 'year:desc' })),
            }, { per_page: 10 });
            if (answer.code) throw new Error(answer.code + ' - ' + answer.error);
            const hits = answer.hits.map((hit) => ({ ...hit.document, objectID: hit.collection + '/' + hit.document.id, collection: hit.collection }));
            return { results: requests.map(() => ({ hits, nbHits: answer.found, page: 0, nbPages: 1, hitsPerPage: 10, processingTimeMS: answer.search_time_ms, query, params: '', exhaustiveNbHits: true })) };
          },
        };
        const search = instantsearch({ indexName: 'everything', searchClient: unionClient });
        search.addWidgets([
          instantsearch.widgets.searchBox({ container: '#searchbox' }),
          instantsearch.widgets.hits({ container: '#hits', templates: { item: (hit, { html }) => html\`<span data-collection="\${hit.collection}">\${hit.title} (\${hit.year})</span>\` } }),
        ]);
        search.start();
      `,
    });
    await page.locator('.ais-SearchBox-input').fill('sea');
    await page.waitForFunction(() => document.querySelectorAll('#hits [data-collection]').length === 4);
    const rows = await page.locator('#hits [data-collection]').evaluateAll((spans) => spans.map((s) => `${s.textContent} @${s.getAttribute('data-collection')}`));
    expect(rows).toEqual([`Sea Wolves (2012) @${films}`, `Sea of Stars (2010) @${books}`, `Deep Sea Diving (2005) @${books}`, `The Silent Sea (2001) @${books}`]);
    expect(searches.some((body) => (body as { union?: boolean }).union === true)).toBe(true);
  });
});
