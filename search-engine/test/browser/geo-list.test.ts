import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type Target, startTarget, uniqueName } from '../support/target.js';
import { InstantSearchHarness, reservePageOrigin } from './instantsearch-page.js';

const PLACES = [
  { id: 'louvre', name: 'Louvre', location: [48.8606, 2.3376] },
  { id: 'notre-dame', name: 'Notre-Dame', location: [48.853, 2.3499] },
  { id: 'eiffel', name: 'Eiffel Tower', location: [48.8584, 2.2945] },
  { id: 'versailles', name: 'Versailles', location: [48.8049, 2.1204] },
];

describe('InstantSearch.js page: geo search list (Chromium, adapter 3.0.2)', () => {
  let target: Target;
  let harness: InstantSearchHarness;
  let places: string;
  beforeAll(async () => {
    const pages = await reservePageOrigin();
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: pages.origin });
    places = uniqueName('places_page');
    await http(target.url, 'POST', '/collections', {
      key: target.adminKey,
      body: { name: places, fields: [{ name: 'name', type: 'string' }, { name: 'location', type: 'geopoint' }] },
    });
    await http(target.url, 'POST', `/collections/${places}/documents/import`, { key: target.adminKey, rawBody: PLACES.map((p) => JSON.stringify(p)).join('\n') });
    harness = new InstantSearchHarness(target.url, target.searchKey, pages.port);
    await harness.start();
  });
  afterAll(async () => {
    await harness?.close();
    await http(target.url, 'DELETE', `/collections/${places}`, { key: target.adminKey });
    await target.close();
  });

  it('lists places around a point nearest first with their distance, then the ones inside a bounding box', async () => {
    const { page, searches } = await harness.open('geo', {
      adapterOptions: { geoLocationField: 'location', additionalSearchParameters: { query_by: 'name' } },
      body: '<ol id="hits"></ol>',
      script: `
        const search = instantsearch({ indexName: ${JSON.stringify(`${places}/sort/location(48.8566, 2.3522):asc`)}, searchClient });
        search.addWidgets([
          instantsearch.widgets.configure({ aroundLatLng: '48.8566, 2.3522', aroundRadius: 5000 }),
          instantsearch.widgets.hits({
            container: '#hits',
            templates: { item: (hit, { html }) => html\`<span data-id="\${hit.id}" data-lat="\${hit._geoloc.lat}">\${hit.name}: \${(hit.geo_distance_meters.location / 1000).toFixed(1)} km</span>\` },
          }),
        ]);
        search.start();
        window.instantSearch = search;
      `,
    });
    await page.waitForFunction(() => document.querySelectorAll('#hits [data-id]').length === 3);
    expect(await page.locator('#hits [data-id]').allTextContents()).toEqual(['Notre-Dame: 0.4 km', 'Louvre: 1.2 km', 'Eiffel Tower: 4.2 km']);
    expect(await page.locator('#hits [data-id]').first().getAttribute('data-lat')).toBe('48.853');
    const first = JSON.stringify(searches[0]);
    expect(first).toContain('location:(48.8566, 2.3522, 5 km)');
    expect(first).toContain('location(48.8566, 2.3522):asc');

    await page.evaluate(() => {
      interface Helper {
        setQueryParameter(key: string, value: unknown): Helper;
        search(): void;
      }
      const helper = (window as unknown as { instantSearch: { helper: Helper } }).instantSearch.helper;
      helper.setQueryParameter('aroundRadius', undefined).setQueryParameter('aroundLatLng', undefined).setQueryParameter('insideBoundingBox', [[48.87, 2.28, 48.85, 2.30]]).search();
    });
    await page.waitForFunction(() => document.querySelectorAll('#hits [data-id]').length === 1);
    expect(await page.locator('#hits [data-id]').getAttribute('data-id')).toBe('eiffel');
  });
});
