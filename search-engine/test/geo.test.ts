import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

// Paris landmarks (lat, lng).
const PLACES = [
  { id: 'louvre', name: 'Louvre', location: [48.8606, 2.3376] },
  { id: 'notre-dame', name: 'Notre-Dame', location: [48.853, 2.3499] },
  { id: 'eiffel', name: 'Eiffel Tower', location: [48.8584, 2.2945] },
  { id: 'versailles', name: 'Versailles', location: [48.8049, 2.1204] },
  { id: 'stations', name: 'Stations', locations: [[48.8809, 2.3553], [48.8443, 2.3744]] },
];
const CENTER = '48.8566, 2.3522'; // Hôtel de Ville

describe('geo: geopoint fields, radius / polygon filters, distance sort, geo_distance_meters', () => {
  let target: Target;
  let places: string;
  beforeAll(async () => {
    target = await startTarget();
    places = uniqueName('places');
    const created = await http(target.url, 'POST', '/collections', {
      key: target.adminKey,
      body: {
        name: places,
        fields: [
          { name: 'name', type: 'string' },
          { name: 'location', type: 'geopoint', optional: true },
          { name: 'locations', type: 'geopoint[]', optional: true },
        ],
      },
    });
    if (created.status !== 201) throw new Error(created.text);
    const imported = await http(target.url, 'POST', `/collections/${places}/documents/import`, { key: target.adminKey, rawBody: PLACES.map((p) => JSON.stringify(p)).join('\n') });
    if (imported.text.includes('"success":false')) throw new Error(imported.text);
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${places}`, { key: target.adminKey });
    await target.close();
  });

  it('filters by radius (km and mi) and sorts by distance with geo_distance_meters on each hit', async () => {
    const near = await search(target, places, { q: '*', filter_by: `location:(${CENTER}, 5 km)`, sort_by: `location(${CENTER}):asc` });
    expect(hitIds(near)).toEqual(['notre-dame', 'louvre', 'eiffel']);
    const meters = near.hits.map((h: { geo_distance_meters: { location: number } }) => h.geo_distance_meters.location);
    expect(meters[0]).toBeGreaterThan(350);
    expect(meters[0]).toBeLessThan(550);
    expect(meters[2]).toBeGreaterThan(4000);
    expect(meters[2]).toBeLessThan(4400);
    const miles = await search(target, places, { q: '*', filter_by: `location:(${CENTER}, 1 mi)` });
    expect(hitIds(miles).sort()).toEqual(['louvre', 'notre-dame']);
    const far = await search(target, places, { q: '*', sort_by: `location(${CENTER}):desc`, filter_by: 'location:(48.8566, 2.3522, 50 km)' });
    expect(hitIds(far)[0]).toBe('versailles');
  });

  it('filters by polygon (a bounding box as four corners) and by any of several shapes', async () => {
    const box = await search(target, places, { q: '*', filter_by: 'location:(48.87, 2.32, 48.87, 2.36, 48.85, 2.36, 48.85, 2.32)' });
    expect(hitIds(box).sort()).toEqual(['louvre', 'notre-dame']);
    const either = await search(target, places, { q: '*', filter_by: 'location:[(48.8584, 2.2945, 0.5 km), (48.8049, 2.1204, 1 km)]' });
    expect(hitIds(either).sort()).toEqual(['eiffel', 'versailles']);
    const combined = await search(target, places, { q: 'tower', query_by: 'name', filter_by: `location:(${CENTER}, 10 km) && name:!=Louvre` });
    expect(hitIds(combined)).toEqual(['eiffel']);
  });

  it('geopoint[] fields match and sort by their nearest point', async () => {
    const result = await search(target, places, { q: '*', filter_by: 'locations:(48.8443, 2.3744, 1 km)', sort_by: `locations(${CENTER}):asc` });
    expect(hitIds(result)).toEqual(['stations']);
    expect(result.hits[0].geo_distance_meters.locations).toBeGreaterThan(2000);
    expect(result.hits[0].geo_distance_meters.locations).toBeLessThan(3000);
  });

  it('rejects bad geo values and units', async () => {
    const badUnit = await search(target, places, { q: '*', filter_by: `location:(${CENTER}, 5 yd)` });
    expect(badUnit).toEqual({ code: 400, error: 'Unit must be either `km` or `mi`.' });
    const badDoc = await http(target.url, 'POST', `/collections/${places}/documents/import`, { key: target.adminKey, rawBody: JSON.stringify({ id: 'x', name: 'X', location: [48.8] }) });
    expect(JSON.parse(badDoc.text)).toMatchObject({ success: false, code: 400 });
  });
});
