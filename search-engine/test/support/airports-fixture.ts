import { prng } from '../../bench/bench-support.js';
import { greatCircleLatitudeAt, insideConvexSphericalPolygon, type LatLng } from './geo-reference.js';

/**
 * An airports-like collection for polygon tests, shaped like typesense-instantsearch-adapter's
 * test data (a `location` geopoint per airport) but generated here: three real airports, a
 * jittered grid over the contiguous United States, points placed on both sides of each edge of
 * the Chicago – New York – Salt Lake City triangle (between the straight map line and the
 * great-circle arc, where flat and great-circle edges disagree, and beyond both), and a few
 * points around the antimeridian and in the southern hemisphere.
 */
export interface Airport {
  id: string;
  name: string;
  location: [number, number];
}

export const CHICAGO: LatLng = [41.8781, -87.6298];
export const NEW_YORK: LatLng = [40.7128, -74.006];
export const SALT_LAKE_CITY: LatLng = [40.7608, -111.891];
/** The polygon: 13 of the adapter's airports inside with flat edges, 2 with great-circle ones (O'Hare, Rockford). */
export const CHICAGO_TRIANGLE: LatLng[] = [CHICAGO, NEW_YORK, SALT_LAKE_CITY];

const NAMED: Airport[] = [
  { id: 'ORD', name: "Chicago O'Hare", location: [41.9742, -87.9073] },
  { id: 'RFD', name: 'Chicago Rockford', location: [42.1954, -89.0972] },
  { id: 'MDW', name: 'Chicago Midway', location: [41.7868, -87.7522] },
];

const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

/** The generated airports (deterministic). Points within ~6 m of an edge's great circle are left out. */
export function airportsFixture(): Airport[] {
  const random = prng(3282);
  const airports: Airport[] = [...NAMED];
  const add = (prefix: string, lat: number, lng: number): void => {
    const location: [number, number] = [round4(lat), round4(lng)];
    if (insideConvexSphericalPolygon(CHICAGO_TRIANGLE, location).margin < 1e-6) return;
    airports.push({ id: `${prefix}${airports.length}`, name: `${prefix} field ${airports.length}`, location });
  };
  for (let lat = 25; lat <= 49; lat += 1.5) {
    for (let lng = -124; lng <= -67; lng += 1.5) add('grid', lat + (random() - 0.5) * 0.8, lng + (random() - 0.5) * 0.8);
  }
  for (const [a, b] of [[CHICAGO, NEW_YORK], [NEW_YORK, SALT_LAKE_CITY], [SALT_LAKE_CITY, CHICAGO]] as [LatLng, LatLng][]) {
    for (let k = 0; k < 30; k++) {
      const t = 0.05 + 0.9 * random();
      const lng = a[1] + t * (b[1] - a[1]);
      const lineLatitude = a[0] + t * (b[0] - a[0]);
      const arcLatitude = greatCircleLatitudeAt(a, b, lng);
      // Below the line, between line and arc (twice), beyond the arc.
      for (const u of [-0.4, 0.25, 0.75, 1.4]) add('edge', lineLatitude + u * (arcLatitude - lineLatitude), lng);
    }
  }
  for (let k = 0; k < 40; k++) add('pacific', -20 + random() * 6, 176 + random() * 8); // east of 180° written as west longitudes below
  for (const [lat, lng] of [[-33.9715, 18.6021], [-46.4, 168.3], [-77.8419, 166.6863], [-54.8433, -68.2958], [-12.0219, -77.1143]] as LatLng[]) add('south', lat, lng);
  return airports.map((airport) => ({ ...airport, location: [airport.location[0], airport.location[1] > 180 ? airport.location[1] - 360 : airport.location[1]] }));
}
