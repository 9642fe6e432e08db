/**
 * Cost of great-circle polygon containment per document (prints figures; not a test).
 *
 *   npx tsx bench/geo-polygon-bench.ts [--size 100000] [--rounds 7]   (from search-engine/)
 *
 * 100k (default) generated geopoints over North America, four polygons (a city-sized box, the
 * issue's Chicago – New York – Salt Lake City triangle, a 12-gon and a 64-gon around the
 * continent's middle), and
 * per polygon, interleaved in the same run, the median over the rounds of:
 * - flat: the engine's former test, ray casting on lat/lng as a plane (the baseline);
 * - great circle: what the engine now does per stored point (packed coordinates, the loop's
 *   latitude/longitude box, then unit vector → `SphericalLoop.contains`);
 * - great circle, vector given: `contains` alone, on points turned into vectors beforehand;
 * - filter scan, flat / great circle: the whole `filter_by` mask over a 100k-document collection
 *   in this process (`evaluateFilter`), and the same scan loop with the flat test, so the share
 *   of containment in a real filter shows.
 * Also how many points the flat and great-circle answers disagree on.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { SearchEngine } from '../src/engine.js';
import { evaluateFilter } from '../src/search/filter-eval.js';
import { geoPointsOf, packedCoordinate } from '../src/search/geo.js';
import { pointFromDegrees, SphericalLoop, type Vec3 } from '../src/geo/spherical-loop.js';
import { insideFlatPolygon, type LatLng } from '../test/support/geo-reference.js';
import { fmt, prng } from './bench-support.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const size = option('size', 100_000);
const rounds = option('rounds', 7);
const random = prng(100_000);

const points: LatLng[] = Array.from({ length: size }, () => [25 + random() * 25, -125 + random() * 58]);
const vectors: Vec3[] = points.map(([lat, lng]) => pointFromDegrees(packedCoordinate(lat), packedCoordinate(lng)));

function regularPolygon(center: LatLng, radius: number, count: number): LatLng[] {
  return Array.from({ length: count }, (_, k): LatLng => {
    const angle = (2 * Math.PI * k) / count;
    return [center[0] + radius * Math.sin(angle), center[1] + (radius * Math.cos(angle)) / Math.cos((center[0] * Math.PI) / 180)];
  });
}

const polygons: [string, LatLng[]][] = [
  ['city box (4), Chicago, 0.3°', [[41.7, -87.8], [41.7, -87.5], [42.0, -87.5], [42.0, -87.8]]],
  ['Chicago triangle (3)', [[41.8781, -87.6298], [40.7128, -74.006], [40.7608, -111.891]]],
  ['12-gon, radius 8°', regularPolygon([38, -96], 8, 12)],
  ['64-gon, radius 8°', regularPolygon([38, -96], 8, 64)],
];

// The same points as a collection, for the filter scans.
const engine = new SearchEngine(undefined);
engine.createCollection({ name: 'places', fields: [{ name: 'location', type: 'geopoint' }] });
const collection = engine.get('places');
if (!collection) throw new Error('collection missing');
points.forEach((location, i) => collection.write({ id: String(i), location: [location[0], location[1]] }, 'create'));

let sink = 0; // keeps results alive so no loop is optimised away

/** Nanoseconds per point of one pass of `body` over all points. */
function timed(body: () => number): number {
  const started = performance.now();
  sink += body();
  return ((performance.now() - started) * 1e6) / size;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

console.log(`${size.toLocaleString('en')} geopoints, ${rounds} rounds (median), node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| polygon | inside (flat / great circle, disagree) | flat ns/point | great circle ns/point | great circle, vector given | filter scan flat ns/doc | filter scan great circle ns/doc |');
console.log('|---|---|---|---|---|---|---|');
for (const [label, polygon] of polygons) {
  const loop = SphericalLoop.fromDegrees(polygon);
  const filterBy = `location:(${polygon.map(([lat, lng]) => `${lat}, ${lng}`).join(', ')})`;
  const runs = { flat: [] as number[], great: [] as number[], vector: [] as number[], scanFlat: [] as number[], scanGreat: [] as number[] };
  let flatInside = 0;
  let greatInside = 0;
  let disagree = 0;
  for (let round = -1; round < rounds; round++) {
    // Round -1 warms every path up (JIT) and is not counted.
    const flat = timed(() => {
      let n = 0;
      for (const point of points) if (insideFlatPolygon(polygon, point)) n++;
      return n;
    });
    const great = timed(() => {
      let n = 0;
      for (const [lat, lng] of points) if (loop.containsDegrees(packedCoordinate(lat), packedCoordinate(lng))) n++;
      return n;
    });
    const vector = timed(() => {
      let n = 0;
      for (const v of vectors) if (loop.contains(v)) n++;
      return n;
    });
    const scanFlat = timed(() => {
      // The engine's scan loop with the former flat test in place of the loop.
      const mask = new Uint8Array(collection.seqLimit);
      for (let seq = 0; seq < collection.seqLimit; seq++) {
        if (collection.live[seq] !== 1) continue;
        for (const point of geoPointsOf(collection, seq, 'location')) if (insideFlatPolygon(polygon, point)) mask[seq] = 1;
      }
      return mask[0] as number;
    });
    const scanGreat = timed(() => evaluateFilter(collection, filterBy)[0] as number);
    if (round < 0) continue;
    runs.flat.push(flat);
    runs.great.push(great);
    runs.vector.push(vector);
    runs.scanFlat.push(scanFlat);
    runs.scanGreat.push(scanGreat);
  }
  for (let i = 0; i < size; i++) {
    const f = insideFlatPolygon(polygon, points[i] as LatLng);
    const g = loop.contains(vectors[i] as Vec3);
    if (f) flatInside++;
    if (g) greatInside++;
    if (f !== g) disagree++;
  }
  console.log(
    `| ${label} | ${flatInside} / ${greatInside}, ${disagree} | ${fmt(median(runs.flat), 1)} | ${fmt(median(runs.great), 1)} | ${fmt(median(runs.vector), 1)} | ${fmt(median(runs.scanFlat), 1)} | ${fmt(median(runs.scanGreat), 1)} |`,
  );
}
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')} (sink ${sink > 0 ? 'ok' : 'empty'})`);
