import { describe, expect, it } from 'vitest';
import { prng } from '../bench/bench-support.js';
import { crossingSign, pointFromDegrees, SphericalLoop } from '../src/geo/spherical-loop.js';
import { greatCircleLatitudeAt, insideConvexSphericalPolygon, insideFlatPolygon, type LatLng } from './support/geo-reference.js';

/**
 * A convex polygon: `count` points on the spherical circle of `radius` degrees around `center`,
 * in angle order (counter-clockwise) or reversed.
 */
function convexPolygon(random: () => number, center: LatLng, radius: number, count: number, clockwise: boolean): LatLng[] {
  const toRadians = Math.PI / 180;
  const [lat, lng] = [center[0] * toRadians, center[1] * toRadians];
  const c = [Math.cos(lat) * Math.cos(lng), Math.cos(lat) * Math.sin(lng), Math.sin(lat)];
  const east = [-Math.sin(lng), Math.cos(lng), 0];
  const north = [-Math.sin(lat) * Math.cos(lng), -Math.sin(lat) * Math.sin(lng), Math.cos(lat)];
  const r = radius * toRadians;
  const angles = Array.from({ length: count }, () => random() * 2 * Math.PI).sort((a, b) => a - b);
  const points = angles.map((angle): LatLng => {
    const p = [0, 1, 2].map((k) => Math.cos(r) * (c[k] as number) + Math.sin(r) * (Math.cos(angle) * (east[k] as number) + Math.sin(angle) * (north[k] as number)));
    return [Math.asin(p[2] as number) / toRadians, Math.atan2(p[1] as number, p[0] as number) / toRadians];
  });
  return clockwise ? points.reverse() : points;
}

/** Distance (degrees, on the map) from a point to the segment a–b: how close it is to a flat edge. */
function flatDistanceToSegment(p: LatLng, a: LatLng, b: LatLng): number {
  const [py, px] = p;
  const [ay, ax] = a;
  const [by, bx] = b;
  const length2 = (bx - ax) ** 2 + (by - ay) ** 2;
  const t = Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length2));
  return Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
}

describe('spherical loops (S2 semantics)', () => {
  it('matches the great-circle triple-product test on random convex polygons, given in either order', () => {
    const random = prng(28);
    let checked = 0;
    let inside = 0;
    for (let shape = 0; shape < 300; shape++) {
      const center: LatLng = [random() * 150 - 75, random() * 360 - 180];
      const polygon = convexPolygon(random, center, 0.1 + random() * 40, 3 + Math.floor(random() * 6), random() < 0.5);
      const loop = SphericalLoop.fromDegrees(polygon);
      if (loop.validationError()) continue; // two random angles equal, in theory
      for (let k = 0; k < 40; k++) {
        const point: LatLng = [center[0] + (random() - 0.5) * 100, center[1] + (random() - 0.5) * 100];
        const reference = insideConvexSphericalPolygon(polygon, point);
        if (reference.margin < 1e-9) continue;
        expect(loop.containsDegrees(point[0], point[1]), `${JSON.stringify(polygon)} ∋ ${point}`).toBe(reference.inside);
        // The latitude/longitude box in front of the vector test never changes an answer.
        expect(loop.contains(pointFromDegrees(point[0], point[1]))).toBe(reference.inside);
        checked++;
        if (reference.inside) inside++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    expect(inside).toBeGreaterThan(500);
  });

  it('answers the same with and without the latitude/longitude box in front (near poles, across 180°, along bowed edges)', () => {
    const random = prng(12);
    let inside = 0;
    for (let shape = 0; shape < 400; shape++) {
      const center: LatLng = [random() * 178 - 89, random() * 360 - 180];
      const radius = random() < 0.5 ? 0.01 + random() : 1 + random() * 60;
      const polygon = convexPolygon(random, center, radius, 3 + Math.floor(random() * 10), random() < 0.5);
      const loop = SphericalLoop.fromDegrees(polygon);
      for (let k = 0; k < 50; k++) {
        // Points around the polygon, a third of them within 2% of its size from an edge's ends.
        const near = polygon[Math.floor(random() * polygon.length)] as LatLng;
        const spread = k % 3 === 0 ? radius * 0.02 : radius * 2.5;
        const lat = Math.max(-90, Math.min(90, (k % 3 === 0 ? near[0] : center[0]) + (random() - 0.5) * spread));
        const lng = ((((k % 3 === 0 ? near[1] : center[1]) + (random() - 0.5) * spread + 180) % 360) + 360) % 360 - 180;
        const expected = loop.contains(pointFromDegrees(lat, lng));
        expect(loop.containsDegrees(lat, lng), `${JSON.stringify(polygon)} ∋ ${lat}, ${lng}`).toBe(expected);
        if (expected) inside++;
      }
    }
    expect(inside).toBeGreaterThan(2_000);
  });

  it('agrees with flat edges on small polygons away from the poles, for points not next to an edge', () => {
    const random = prng(7);
    let compared = 0;
    let inside = 0;
    for (let shape = 0; shape < 300; shape++) {
      // City-sized shapes (edges up to ~1°) between 60° S and 60° N.
      const center: LatLng = [random() * 120 - 60, random() * 360 - 180];
      const polygon = convexPolygon(random, center, 0.05 + random() * 0.4, 3 + Math.floor(random() * 6), random() < 0.5);
      const loop = SphericalLoop.fromDegrees(polygon);
      for (let k = 0; k < 40; k++) {
        const point: LatLng = [center[0] + (random() - 0.5) * 1.2, center[1] + (random() - 0.5) * 1.2];
        // Within 1e-3° (~100 m) of an edge the arc and the straight line may differ (the arc bows by ≤ 3e-4° here).
        const nearEdge = polygon.some((a, i) => flatDistanceToSegment(point, a, polygon[(i + 1) % polygon.length] as LatLng) < 1e-3);
        if (nearEdge) continue;
        const flat = insideFlatPolygon(polygon, point);
        expect(loop.containsDegrees(point[0], point[1]), `${JSON.stringify(polygon)} ∋ ${point}`).toBe(flat);
        compared++;
        if (flat) inside++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    expect(inside).toBeGreaterThan(1_000);
  });

  it('differs from flat edges exactly between a long edge’s straight line and its arc, which bows toward the pole', () => {
    const random = prng(3);
    let bowed = 0;
    for (let shape = 0; shape < 100; shape++) {
      // A long box in the northern mid-latitudes: west–east edges of 15–40° of longitude.
      const south = 25 + random() * 25;
      const north = south + 3 + random() * 5;
      const west = random() * 300 - 150;
      const east = west + 15 + random() * 25;
      const box: LatLng[] = [[south, west], [south, east], [north, east], [north, west]];
      const loop = SphericalLoop.fromDegrees(box);
      for (let k = 0; k < 10; k++) {
        const lng = west + (0.2 + 0.6 * random()) * (east - west);
        for (const [a, b] of [[box[2], box[3]], [box[0], box[1]]] as [LatLng, LatLng][]) {
          const arcLatitude = greatCircleLatitudeAt(a, b, lng);
          const lineLatitude = a[0];
          expect(arcLatitude).toBeGreaterThan(lineLatitude + 0.05); // the arc bows north
          const between: LatLng = [lineLatitude + (0.1 + 0.8 * random()) * (arcLatitude - lineLatitude), lng];
          // North edge: above the line (flat: outside) but below the arc (great circle: inside);
          // south edge: above the line (flat: inside) but below the arc (great circle: outside).
          expect(loop.containsDegrees(between[0], between[1])).toBe(!insideFlatPolygon(box, between));
          expect(loop.containsDegrees(between[0], between[1])).toBe(insideConvexSphericalPolygon(box, between).inside);
          bowed++;
        }
      }
    }
    expect(bowed).toBe(2000);
  });

  it('holds polygons across the antimeridian, where flat edges take the long way round', () => {
    const random = prng(180);
    for (let shape = 0; shape < 50; shape++) {
      const west = 170 + random() * 9; // east longitudes just west of 180°
      const east = -170 - random() * 9; // west longitudes just east of it
      const south = -20 + random() * 10;
      const north = south + 2 + random() * 10;
      const polygon: LatLng[] = [[south, west], [south, east], [north, east], [north, west]];
      const loop = SphericalLoop.fromDegrees(polygon);
      expect(loop.validationError()).toBeUndefined();
      const middle = (south + north) / 2;
      for (const lng of [179.99, -179.99, 180, -180, (west + 180) / 2, (east - 180) / 2]) {
        expect(loop.containsDegrees(middle, lng), `${lng}`).toBe(true);
        expect(insideFlatPolygon(polygon, [middle, lng])).toBe(false);
      }
      for (const lng of [0, 90, -90, west - 1, east + 1]) expect(loop.containsDegrees(middle, lng), `${lng}`).toBe(false);
    }
  });

  it('means the smaller side of a loop larger than a hemisphere, whichever order its points come in (S2Loop::Normalize)', () => {
    // Typesense normalizes every polygon: src/filter_result_iterator.cpp builds `new S2Loop(vertices,
    // S2Debug::DISABLE)` then `loop->Normalize(); // if loop is not CCW but CW, change to CCW.`, and
    // src/geopolygon_index.cpp does `loop->Normalize()` before making the S2Polygon. Normalize()
    // inverts a loop whose area exceeds 2π, so a ring of points always means its smaller side.
    const ring: LatLng[] = [[-10, 0], [-10, 120], [-10, -120]]; // counter-clockwise seen from the north: the big side
    for (const polygon of [ring, [...ring].reverse()]) {
      const loop = SphericalLoop.fromDegrees(polygon);
      expect(loop.containsDegrees(-90, 0)).toBe(true);
      expect(loop.containsDegrees(-60, 45)).toBe(true);
      expect(loop.containsDegrees(90, 0)).toBe(false);
      expect(loop.containsDegrees(0, 60)).toBe(false);
      expect(loop.containsDegrees(45, -100)).toBe(false);
    }
    expect(SphericalLoop.fromDegrees(ring).reversed).toBe(true);
    expect(SphericalLoop.fromDegrees([...ring].reverse()).reversed).toBe(false);
    // Random big loops: the loop and its reversal are the same region, and it never holds both a point and its antipode.
    const random = prng(99);
    for (let shape = 0; shape < 100; shape++) {
      const center: LatLng = [random() * 160 - 80, random() * 360 - 180];
      const polygon = convexPolygon(random, center, 60 + random() * 29, 3 + Math.floor(random() * 5), random() < 0.5);
      const loop = SphericalLoop.fromDegrees(polygon);
      const reversed = SphericalLoop.fromDegrees([...polygon].reverse());
      for (let k = 0; k < 30; k++) {
        const lat = random() * 180 - 90;
        const lng = random() * 360 - 180;
        expect(reversed.containsDegrees(lat, lng)).toBe(loop.containsDegrees(lat, lng));
        expect(loop.containsDegrees(lat, lng) && loop.containsDegrees(-lat, lng > 0 ? lng - 180 : lng + 180)).toBe(false);
      }
    }
  });

  it('gives a point on a shared edge or vertex to exactly one of the polygons meeting there', () => {
    // S2's semi-open boundary model: VertexCrossing / OrderedCCW at vertices, symbolic perturbation on edges.
    const cells: SphericalLoop[] = [];
    for (let lat = -2; lat < 2; lat++) for (let lng = 178; lng < 182; lng++) cells.push(SphericalLoop.fromDegrees([[lat, lng], [lat + 1, lng], [lat + 1, lng + 1], [lat, lng + 1]]));
    const random = prng(5);
    const points: LatLng[] = [];
    for (let lat = -1; lat <= 1; lat++) for (let lng = 179; lng <= 181; lng++) points.push([lat, lng]); // grid vertices
    for (let k = 0; k < 100; k++) points.push([Math.floor(random() * 3) - 1, 178.5 + random() * 3]); // on west–east edges
    for (let k = 0; k < 100; k++) points.push([-1.5 + random() * 3, 179 + Math.floor(random() * 3)]); // on south–north edges (the meridian 180 included)
    for (const [lat, lng] of points) {
      const holders = cells.filter((cell) => cell.containsDegrees(lat, lng > 180 ? lng - 360 : lng));
      expect(holders.length, `${lat}, ${lng}`).toBe(1);
    }
  });

  it('finds the same first self-intersection as testing every pair of edges', () => {
    const random = prng(41);
    let faulty = 0;
    for (let shape = 0; shape < 400; shape++) {
      const center: LatLng = [random() * 140 - 70, random() * 360 - 180];
      const polygon = Array.from({ length: 4 + Math.floor(random() * 10) }, (): LatLng => [center[0] + (random() - 0.5) * 20, center[1] + (random() - 0.5) * 20]);
      if (random() < 0.2) polygon.push(polygon[Math.floor(random() * (polygon.length - 2))] as LatLng); // a repeated vertex
      const loop = SphericalLoop.fromDegrees(polygon);
      const v = loop.vertices;
      const n = v.length;
      let expected: string | undefined;
      for (let i = 0; i < n && !expected; i++) {
        for (let j = i + 2; j < n && !expected; j++) {
          if (i === 0 && j === n - 1) continue;
          const crossing = crossingSign(v[i]!, v[(i + 1) % n]!, v[j]!, v[(j + 1) % n]!);
          const b = v[(i + 1) % n]!;
          const d = v[(j + 1) % n]!;
          if (crossing > 0) expected = `Edge ${i} crosses edge ${j}`;
          else if (crossing === 0 && b[0] === d[0] && b[1] === d[1] && b[2] === d[2]) expected = `Edge ${i} has duplicate vertex with edge ${j}`;
        }
      }
      const error = loop.validationError();
      if (error && !error.selfIntersection) continue; // a repeated neighbour: reported before any crossing
      expect(error?.text).toBe(expected);
      if (expected) faulty++;
    }
    expect(faulty).toBeGreaterThan(100);
    // A long valid ring (a coastline-sized geopolygon) validates without testing every pair.
    const ring = convexPolygon(prng(2), [10, 20], 30, 20_000, false);
    expect(SphericalLoop.fromDegrees(ring).validationError()).toBeUndefined();
  });

  it('reports S2’s validation errors with the edge numbers of the normalized loop', () => {
    // Messages from Typesense's tests: test/geo_filtering_test.cpp (GeoPolygonFiltering) and
    // test/collection_sorting_test.cpp (GeoPointSortingWithExcludeRadius).
    expect(SphericalLoop.fromDegrees([[10, 20], [11, 12], [14, 16], [10, 20], [11, 40]]).validationError()).toEqual({
      text: 'Edge 2 has duplicate vertex with edge 4',
      selfIntersection: true,
    });
    const point: LatLng = [28.7040592, 77.10249019999999];
    expect(SphericalLoop.fromDegrees([point, point, point]).validationError()).toEqual({ text: 'Edge 0 is degenerate (duplicate vertex)', selfIntersection: false });
    expect(SphericalLoop.fromDegrees([[0, 0], [1, 1], [0, 1], [1, 0]]).validationError()).toEqual({ text: 'Edge 0 crosses edge 2', selfIntersection: true });
    expect(SphericalLoop.fromDegrees([[0, 0], [1, 1]]).validationError()?.text).toBe('Non-empty, non-full loops must have at least 3 vertices');
    expect(SphericalLoop.fromDegrees([[0, 0], [1, 0], [1, 1], [0, 1]]).validationError()).toBeUndefined();
  });
});
