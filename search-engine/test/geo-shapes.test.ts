import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Airport, airportsFixture, CHICAGO_TRIANGLE } from './support/airports-fixture.js';
import { insideConvexSphericalPolygon, insideFlatPolygon, type LatLng } from './support/geo-reference.js';
import { hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

/*
 * Conformance tests for issue 28's geo part, written to run unchanged against a real Typesense
 * (TYPESENSE_URL). Facts from Typesense's source (typesense/typesense at the v30 curation
 * refactor) and docs (typesense-website docs-site/content/30.0/api/geosearch.md) are cited where used.
 */

const polygonFilter = (field: string, polygon: readonly LatLng[]): string => `${field}:(${polygon.map(([lat, lng]) => `${lat}, ${lng}`).join(', ')})`;

async function createCollection(target: Target, prefix: string, fields: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  const name = uniqueName(prefix);
  const created = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name, fields, ...extra } });
  if (created.status !== 201) throw new Error(`create ${name}: ${created.status} ${created.text}`);
  return name;
}

async function importDocuments(target: Target, collection: string, documents: unknown[]): Promise<void> {
  const imported = await http(target.url, 'POST', `/collections/${collection}/documents/import?action=create`, {
    key: target.adminKey,
    rawBody: documents.map((d) => JSON.stringify(d)).join('\n'),
    headers: { 'content-type': 'text/plain' },
  });
  if (imported.status !== 200 || imported.text.includes('"success":false')) throw new Error(`import: ${imported.text.slice(0, 400)}`);
}

/** Every matching id of a wildcard search with this filter (all pages), and `found`. */
async function allMatches(target: Target, collection: string, filterBy: string): Promise<{ found: number; ids: string[] }> {
  const ids: string[] = [];
  let found = 0;
  for (let page = 1; ; page++) {
    const result = await search(target, collection, { q: '*', filter_by: filterBy, per_page: 250, page, include_fields: 'id' });
    if (result.code) throw new Error(`${result.code} ${result.error}`);
    found = result.found;
    ids.push(...hitIds(result));
    if (result.hits.length < 250) break;
  }
  return { found, ids: ids.sort() };
}

let target: Target;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target.close();
});

describe('polygon filters on geopoint fields: great-circle edges (S2)', () => {
  const airports = airportsFixture();
  let collection: string;
  beforeAll(async () => {
    collection = await createCollection(target, 'airports', [
      { name: 'name', type: 'string' },
      { name: 'location', type: 'geopoint' },
    ]);
    await importDocuments(target, collection, airports);
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
  });

  const expectedInside = (polygon: readonly LatLng[]): string[] =>
    airports.filter((a) => insideConvexSphericalPolygon(polygon, a.location).inside).map((a) => a.id).sort();

  it('answers the Chicago – New York – Salt Lake City triangle by great circles: O’Hare and Rockford in, Midway out', async () => {
    // Typesense filters a polygon with S2Loop::Contains (src/filter_result_iterator.cpp), whose
    // edges are geodesics; the issue: over the adapter's 3,282 airports this polygon holds 13 with
    // flat edges (Midway first) and exactly O'Hare and Rockford with great-circle edges.
    const expected = expectedInside(CHICAGO_TRIANGLE);
    const flat = airports.filter((a) => insideFlatPolygon(CHICAGO_TRIANGLE, a.location)).map((a) => a.id);
    expect(expected).toContain('ORD');
    expect(expected).toContain('RFD');
    expect(expected).not.toContain('MDW');
    expect(flat).toContain('MDW'); // the fixture tells the two models apart …
    expect(flat).not.toContain('ORD');
    const disagreements = airports.filter((a) => flat.includes(a.id) !== expected.includes(a.id));
    expect(disagreements.length).toBeGreaterThan(100); // … on many points, both ways

    const { found, ids } = await allMatches(target, collection, polygonFilter('location', CHICAGO_TRIANGLE));
    expect(found).toBe(expected.length);
    expect(ids).toEqual(expected);
  });

  it('gives the same answer for the points clockwise, counter-clockwise or closed (last point = first)', async () => {
    // src/filter_result_iterator.cpp: a last point equal to the first is skipped, then `loop->Normalize()`;
    // test/geo_filtering_test.cpp GeoPolygonFiltering: "should work even if points of polygon are clockwise".
    const expected = expectedInside(CHICAGO_TRIANGLE);
    for (const polygon of [[...CHICAGO_TRIANGLE].reverse(), [...CHICAGO_TRIANGLE, CHICAGO_TRIANGLE[0] as LatLng]]) {
      expect((await allMatches(target, collection, polygonFilter('location', polygon))).ids).toEqual(expected);
    }
  });

  it('holds a polygon across the antimeridian', async () => {
    const fiji: LatLng[] = [[-19, 177], [-19, -178], [-15, -178], [-15, 177]];
    const expected = expectedInside(fiji);
    expect(expected.length).toBeGreaterThan(5);
    expect(airports.some((a) => expected.includes(a.id) && a.location[1] < 0)).toBe(true); // both sides of 180°
    expect(airports.some((a) => expected.includes(a.id) && a.location[1] > 0)).toBe(true);
    const { ids } = await allMatches(target, collection, polygonFilter('location', fiji));
    expect(ids).toEqual(expected);
  });

  it('takes a loop larger than a hemisphere as its smaller side (S2Loop::Normalize), in either order', async () => {
    // src/filter_result_iterator.cpp: `auto loop = new S2Loop(vertices, S2Debug::DISABLE);
    // loop->Normalize(); // if loop is not CCW but CW, change to CCW.` Normalize() inverts a loop
    // covering more than 2π, so these points mean the cap around the south pole either way.
    const ring: LatLng[] = [[-10, 0], [-10, 120], [-10, -120]];
    const expected = expectedInside(ring);
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(expected.every((id) => (airports.find((a) => a.id === id) as Airport).location[0] < -10)).toBe(true);
    for (const polygon of [ring, [...ring].reverse()]) {
      expect((await allMatches(target, collection, polygonFilter('location', polygon))).ids).toEqual(expected);
    }
  });

  it('refuses invalid polygons with S2’s reason, and ignores a closing point', async () => {
    // test/geo_filtering_test.cpp GeoPolygonFiltering and test/collection_sorting_test.cpp
    // (bad vertex); "Polygon at position N" when a list holds several (src/filter_result_iterator.cpp).
    expect(await search(target, collection, { q: '*', filter_by: 'location:(10, 20, 11, 12, 14, 16, 10, 20, 11, 40)' })).toEqual({
      code: 400,
      error: 'Polygon is invalid: Edge 2 has duplicate vertex with edge 4',
    });
    const closed = await search(target, collection, { q: '*', filter_by: 'location:(10, 20, 11, 12, 14, 16, 10, 20)' });
    expect(closed.found).toBe(0);
    const point = '28.7040592, 77.10249019999999';
    expect(await search(target, collection, { q: '*', filter_by: `location:(${point}, ${point}, ${point}, ${point})` })).toEqual({
      code: 400,
      error: 'Polygon is invalid: Edge 0 is degenerate (duplicate vertex)',
    });
    expect(await search(target, collection, { q: '*', filter_by: `location:[${polygonFilter('', CHICAGO_TRIANGLE).slice(1)}, (0, 0, 1, 1, 0, 1, 1, 0)]` })).toEqual({
      code: 400,
      error: 'Polygon at position 2 is invalid: Edge 0 crosses edge 2',
    });
  });
});

describe('geopolygon fields', () => {
  let territories: string;
  const square = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
  beforeAll(async () => {
    // docs-site/content/30.0/api/geosearch.md "Geographic Polygons"; test/geo_filtering_test.cpp GeoPolygonTest.
    territories = await createCollection(target, 'territories', [
      { name: 'name', type: 'string' },
      { name: 'area', type: 'geopolygon' },
    ]);
    await importDocuments(target, territories, [
      { id: '0', name: 'square', area: square },
      { id: '1', name: 'rectangle', area: [2.0, 2.0, 5.0, 2.0, 5.0, 4.0, 2.0, 4.0] },
    ]);
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${territories}`, { key: target.adminKey });
  });

  it('are sortable by default and cannot be made unsortable (src/field.cpp)', async () => {
    const schema = await http(target.url, 'GET', `/collections/${territories}`, { key: target.adminKey });
    expect(schema.json.fields.find((f: { name: string }) => f.name === 'area')).toMatchObject({ type: 'geopolygon', sort: true, index: true });
    const refused = await http(target.url, 'POST', '/collections', {
      key: target.adminKey,
      body: { name: uniqueName('unsorted'), fields: [{ name: 'area', type: 'geopolygon', sort: false }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ message: 'The `sort` property of the field `area` having `geopolygon` type cannot be `false`. The sort index is used during GeoSearch.' });
  });

  it('find the documents whose polygon holds a point, and follow additions, updates and deletions', async () => {
    expect(hitIds(await search(target, territories, { q: '*', filter_by: 'area:(0.5, 0.5)' }))).toEqual(['0']);
    expect(hitIds(await search(target, territories, { q: '*', filter_by: 'area:(2.5, 3.5)' }))).toEqual(['1']);
    expect((await search(target, territories, { q: '*', filter_by: 'area:(10.5, 10.5)' })).found).toBe(0);
    const added = await http(target.url, 'POST', `/collections/${territories}/documents`, { key: target.adminKey, body: { id: '2', name: 'square2', area: [0.0, 0.0, 2.0, 0.0, 2.0, 2.0, 0.0, 2.0] } });
    expect(added.status).toBe(201);
    expect(hitIds(await search(target, territories, { q: '*', filter_by: 'area:(0.5, 0.5)' }))).toEqual(['2', '0']);
    expect(hitIds(await search(target, territories, { q: '*', filter_by: 'area:(0.5, 0.5) && name:square2' }))).toEqual(['2']);
    // Moving square2 away: the filter follows the stored polygon.
    const moved = await http(target.url, 'PATCH', `/collections/${territories}/documents/2`, { key: target.adminKey, body: { area: [10.0, 10.0, 11.0, 10.0, 11.0, 11.0, 10.0, 11.0] } });
    expect(moved.status).toBe(200);
    expect(hitIds(await search(target, territories, { q: '*', filter_by: 'area:(0.5, 0.5)' }))).toEqual(['0']);
    expect(hitIds(await search(target, territories, { q: '*', filter_by: 'area:(10.5, 10.5)' }))).toEqual(['2']);
    await http(target.url, 'DELETE', `/collections/${territories}/documents/0`, { key: target.adminKey });
    expect((await search(target, territories, { q: '*', filter_by: 'area:(0.5, 0.5)' })).found).toBe(0);
  });

  it('refuse invalid polygons with S2’s reason and the document’s sequence id', async () => {
    // test/geo_filtering_test.cpp GeoPolygonTestRealCoordinates: after three documents, a one-point polygon.
    const onePoint = await http(target.url, 'POST', `/collections/${territories}/documents`, { key: target.adminKey, body: { id: '3', name: 'invalid', area: [40.7565, -73.9845] } });
    expect(onePoint.status).toBe(400);
    expect(onePoint.json).toEqual({ message: 'Geopolygon for seq_id 3 is invalid: Loop 0: empty loops are not allowed' });
    // Typesense spends a sequence id on a refused document, this server does not: the number is not compared.
    const bowTie = await http(target.url, 'POST', `/collections/${territories}/documents`, { key: target.adminKey, body: { id: '4', name: 'bow tie', area: [0, 0, 1, 1, 0, 1, 1, 0] } });
    expect(bowTie.status).toBe(400);
    expect(bowTie.json.message).toMatch(/^Geopolygon for seq_id \d+ is invalid: Edge 0 crosses edge 2$/);
    // src/validator.cpp: not an array; src/index.cpp reads the values as doubles (nlohmann's type error).
    const notArray = await http(target.url, 'POST', `/collections/${territories}/documents`, { key: target.adminKey, body: { id: '5', name: 'text', area: 'square' } });
    expect(notArray.json).toEqual({ message: 'Field `area` must be an array.' });
    const strings = await http(target.url, 'POST', `/collections/${territories}/documents`, { key: target.adminKey, body: { id: '6', name: 'strings', area: ['0', 0, 1, 0, 1, 1] } });
    expect(strings.json).toEqual({ message: '[json.exception.type_error.302] type must be number, but is string' });
    expect((await http(target.url, 'GET', `/collections/${territories}/documents/3`, { key: target.adminKey })).status).toBe(404);
  });

  it('check the filter value: one point (src/filter.cpp); of a list only the first is searched (src/filter_result_iterator.cpp: values[0])', async () => {
    expect(hitIds(await search(target, territories, { q: '*', filter_by: 'area:[(10.5, 10.5), (2.5, 3.5)]' }))).toEqual(['2']);
    expect(hitIds(await search(target, territories, { q: '*', filter_by: 'area:[(2.5, 3.5), (10.5, 10.5)]' }))).toEqual(['1']);
    for (const value of ['(0.5, 0.5, 1 km)', '(0.5, 0.5, 0.6, 0.6, 0.7, 0.5)']) {
      expect(await search(target, territories, { q: '*', filter_by: `area:${value}` })).toEqual({
        code: 400,
        error: 'Value of geopolygon filter field must be in the format `(-44.50, 170.29)`',
      });
    }
  });

  it('hold polygons in either order, across the antimeridian, and give a shared edge or vertex to exactly one', async () => {
    const tiles = await createCollection(target, 'tiles', [{ name: 'area', type: 'geopolygon' }]);
    const tile = (lat: number, lng: number, clockwise: boolean): number[] => {
      const ring = [lat, lng, lat + 1, lng, lat + 1, lng + 1, lat, lng + 1];
      return clockwise ? ring : [lat, lng, lat, lng + 1, lat + 1, lng + 1, lat + 1, lng];
    };
    await importDocuments(target, tiles, [
      { id: 'sw', area: tile(0, 0, true) },
      { id: 'se', area: tile(0, 1, false) },
      { id: 'nw', area: tile(1, 0, false) },
      { id: 'ne', area: tile(1, 1, true) },
      { id: 'fiji', area: [-19, 177, -19, -178, -15, -178, -15, 177] },
    ]);
    expect(hitIds(await search(target, tiles, { q: '*', filter_by: 'area:(0.5, 1.5)' }))).toEqual(['se']);
    expect(hitIds(await search(target, tiles, { q: '*', filter_by: 'area:(1.5, 0.5)' }))).toEqual(['nw']);
    // S2's semi-open boundaries: a point on the edge or corner that tiles share belongs to exactly one of them.
    for (const point of ['(1, 1)', '(0.5, 1)', '(1, 0.5)', '(1.5, 1)', '(1, 1.5)']) {
      expect((await search(target, tiles, { q: '*', filter_by: `area:${point}` })).found, point).toBe(1);
    }
    for (const point of ['(-17, 179.5)', '(-17, -179.5)', '(-17, 180)']) expect(hitIds(await search(target, tiles, { q: '*', filter_by: `area:${point}` })), point).toEqual(['fiji']);
    expect((await search(target, tiles, { q: '*', filter_by: 'area:(-17, 0)' })).found).toBe(0);
    await http(target.url, 'DELETE', `/collections/${tiles}`, { key: target.adminKey });
  });
});

describe('geo sort options exclude_radius and precision', () => {
  // Records, expected orders and distances from test/collection_sorting_test.cpp
  // (GeoPointSortingWithExcludeRadius, GeoPointSortingWithPrecision); the options are documented in
  // docs-site/content/30.0/api/geosearch.md "Sorting by Additional Attributes within a Radius".
  const records: [string, LatLng][] = [
    ['Tibetan Colony', [32.24678, 77.19239]],
    ['Civil Hospital', [32.23959, 77.18763]],
    ['Johnson Lodge', [32.24751, 77.18814]],
    ['Lion King Rock', [32.24493, 77.17038]],
    ['Jai Durga Handloom', [32.25749, 77.17583]],
    ['Panduropa', [32.26059, 77.21798]],
    ['Police Station', [32.23743, 77.18639]],
    ['Panduropa Post', [32.26263, 77.2196]],
  ];
  const reference = '32.24348, 77.1893';
  const nearby = `loc:(${reference}, 20 km)`;
  let places: string;
  beforeAll(async () => {
    places = await createCollection(
      target,
      'places',
      [
        { name: 'title', type: 'string' },
        { name: 'loc', type: 'geopoint', optional: true },
        { name: 'points', type: 'int32' },
      ],
      { default_sorting_field: 'points' },
    );
    await importDocuments(target, places, [
      ...records.map(([title, loc], i) => ({ id: String(i), title, loc, points: i })),
      { id: 'nowhere', title: 'No location', points: 100 },
    ]);
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${places}`, { key: target.adminKey });
  });

  const distances = (result: { hits: { geo_distance_meters: { loc: number } }[] }): number[] => result.hits.map((h) => h.geo_distance_meters.loc);

  it('exclude_radius: documents within it tie at distance 0 and the next key orders them', async () => {
    const firstSix = `${nearby} && points:<6`;
    const excluded = await search(target, places, { q: '*', filter_by: firstSix, sort_by: `loc(${reference}, exclude_radius: 1km):asc,points:desc` });
    expect(hitIds(excluded)).toEqual(['2', '1', '0', '3', '4', '5']);
    // geo_distance_meters reports the sort value (src/collection.cpp: abs of the score), so 0 inside the radius.
    expect(distances(excluded).slice(0, 3)).toEqual([0, 0, 0]);
    expect(distances(excluded)[3]).toBeGreaterThan(1000);
    const plain = await search(target, places, { q: '*', filter_by: firstSix, sort_by: `loc(${reference}):asc,points:desc` });
    expect(hitIds(plain)).toEqual(['1', '2', '0', '3', '4', '5']);
    const miles = await search(target, places, { q: '*', filter_by: nearby, sort_by: `loc(${reference}, exclude_radius: 2mi):asc,points:desc` });
    // 2 mi = 3218 m: all but 5 (3299 m) and 7 (3556 m) tie, ordered by points.
    expect(hitIds(miles)).toEqual(['6', '4', '3', '2', '1', '0', '5', '7']);
  });

  it('precision: distances are bucketed, the next key orders each bucket, and hits show the real distance', async () => {
    const result = await search(target, places, { q: '*', filter_by: nearby, sort_by: `loc(${reference}, precision: 0.9 km):asc,points:desc` });
    expect(result.found).toBe(8);
    expect(hitIds(result)).toEqual(['6', '2', '1', '0', '3', '4', '7', '5']);
    expect(distances(result)).toEqual([726, 461, 460, 467, 1786, 2007, 3556, 3299]);
  });

  it('sorts a document without the field as the farthest (src/index.cpp get_geo_distance: INT32_MAX)', async () => {
    const ascending = await search(target, places, { q: '*', sort_by: `loc(${reference}):asc`, per_page: 20 });
    expect(hitIds(ascending).at(-1)).toBe('nowhere');
    expect(distances(ascending).at(-1)).toBe(2147483647);
    const descending = await search(target, places, { q: '*', sort_by: `loc(${reference}):desc`, per_page: 20 });
    expect(hitIds(descending)[0]).toBe('nowhere');
  });

  it('refuse bad options with Typesense’s messages', async () => {
    const cases: [string, string][] = [
      ['exclude_radius 1 km', 'Bad syntax for sorting field `loc`'],
      ['exclude_radius: 1 meter', "Sort field's parameter unit must be either `km` or `mi`."],
      ['exclude_radius: -10 km', "Sort field's parameter must be a positive number."],
      ['exclude_radius: 10 km 20 mi', 'Bad syntax for sorting field `loc`'],
      ['exclude_radius: 1k', "Sort field's parameter unit must be either `km` or `mi`."],
      ['exclude_radius: 5', 'Bad syntax for sorting field `loc`'],
      ['precision 1 km', 'Bad syntax for sorting field `loc`'],
      ['precision: 1 meter', "Sort field's parameter unit must be either `km` or `mi`."],
      ['precision: -10 km', "Sort field's parameter must be a positive number."],
      ['radius: 1 km', 'Bad syntax for sorting field `loc`'],
      ['exclude_radius: 1 km, precision: 1 km', 'Bad syntax for sorting field `loc`'],
    ];
    for (const [option, error] of cases) {
      expect(await search(target, places, { q: '*', filter_by: nearby, sort_by: `loc(${reference}, ${option}):asc` }), option).toEqual({ code: 400, error });
    }
  });
});
