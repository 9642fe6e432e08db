import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';

/** S2's Earth radius (s2/s2earth.h), which Typesense uses for distances. */
const EARTH_RADIUS_METERS = 6371010;

/** A point as Typesense stores a `geopoint`: [lat, lng]. */
export type GeoPoint = readonly [number, number];

/** One geo filter shape. */
export type GeoShape = { kind: 'radius'; center: GeoPoint; meters: number } | { kind: 'polygon'; points: GeoPoint[] };

/** Great-circle (haversine) distance in meters. */
export function geoDistanceMeters(a: GeoPoint, b: GeoPoint): number {
  const toRadians = Math.PI / 180;
  const lat1 = a[0] * toRadians;
  const lat2 = b[0] * toRadians;
  const dLat = lat2 - lat1;
  const dLng = (b[1] - a[1]) * toRadians;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Even-odd ray casting in lat/lng space (polygons here are small: city or region sized). */
function insidePolygon(point: GeoPoint, polygon: GeoPoint[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [yi, xi] = polygon[i] as GeoPoint;
    const [yj, xj] = polygon[j] as GeoPoint;
    if (yi > point[0] !== yj > point[0] && point[1] < ((xj - xi) * (point[0] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function shapeContains(shape: GeoShape, point: GeoPoint): boolean {
  return shape.kind === 'radius' ? geoDistanceMeters(shape.center, point) <= shape.meters : insidePolygon(point, shape.points);
}

const FORMAT_ERROR = (field: string): string =>
  `Value of filter field \`${field}\`: must be in the \`(-44.50, 170.29, 0.75 km)\` or (56.33, -65.97, 23.82, -127.82) format.`;

function isFloat(text: string): boolean {
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(text);
}

/** Parses the inside of `( … )`: `lat, lng, 5 km` (radius) or `lat1, lng1, lat2, lng2, …` (polygon, ≥ 3 points). */
function parseShape(field: string, body: string): GeoShape {
  const parts = body.split(',').map((p) => p.trim());
  if (parts.length < 3) throw new ApiError(400, FORMAT_ERROR(field));
  if (parts.every(isFloat)) {
    if (parts.length % 2 !== 0 || parts.length < 6) throw new ApiError(400, 'Polygon must have at least 3 points (lat, lng pairs).');
    const points: GeoPoint[] = [];
    for (let i = 0; i < parts.length; i += 2) points.push([Number(parts[i]), Number(parts[i + 1])]);
    return { kind: 'polygon', points };
  }
  if (parts.length !== 3 || !isFloat(parts[0] as string) || !isFloat(parts[1] as string)) throw new ApiError(400, FORMAT_ERROR(field));
  const distance = (parts[2] as string).replace(/\s+/g, '');
  const unit = distance.slice(-2);
  if (distance.length < 2 || (unit !== 'km' && unit !== 'mi')) throw new ApiError(400, 'Unit must be either `km` or `mi`.');
  const amount = distance.slice(0, -2);
  if (!isFloat(amount)) throw new ApiError(400, FORMAT_ERROR(field));
  return { kind: 'radius', center: [Number(parts[0]), Number(parts[1])], meters: Number(amount) * (unit === 'km' ? 1000 : 1609.34) };
}

/** Prefix of the placeholder field names geo clauses are replaced with (a control character no schema field has). */
export const GEO_PLACEHOLDER = '\u0001geo';

/** Geo clauses taken out of a `filter_by`, by placeholder field name. */
export interface ExtractedGeo {
  filterBy: string;
  clauses: Map<string, { field: string; shapes: GeoShape[] }>;
}

// `field:(…)` or `field:[(…), (…)]` where the parentheses hold numbers, commas and a unit.
// A field name starts only where a name may start (the lookbehind), so a long run of name
// characters without a colon is scanned once, not once per starting position.
const GEO_CLAUSE = /(?<![^\s()&|:`])([^\s()&|:`]+)\s*:\s*(\[\s*\([^()]*\)(?:\s*,\s*\([^()]*\))*\s*\]|\([^()]*\))/g;

/**
 * Replaces each geo clause (`location:(48.85, 2.34, 5 km)`, a polygon, or a list of shapes
 * in `[ ]`, any matching) with a placeholder clause the filter parser accepts, so the rest
 * of `filter_by` is parsed as before; `evaluateGeoClause` answers the placeholders.
 */
export function extractGeoClauses(filterBy: string): ExtractedGeo {
  const clauses = new Map<string, { field: string; shapes: GeoShape[] }>();
  const rewritten = filterBy.replace(GEO_CLAUSE, (whole: string, field: string, value: string) => {
    const bodies = [...value.matchAll(/\(([^()]*)\)/g)].map((m) => m[1] as string);
    // Grouping parentheses hold clauses (a colon); geo parentheses hold only numbers and units.
    if (bodies.some((b) => b.includes(':'))) return whole;
    const name = `${GEO_PLACEHOLDER}${clauses.size}`;
    clauses.set(name, { field, shapes: bodies.map((body) => parseShape(field, body)) });
    return `${name}:=1`;
  });
  return { filterBy: rewritten, clauses };
}

/** The geopoints of a document's field (`geopoint` or `geopoint[]`). */
export function geoPointsOf(collection: Collection, seq: number, field: string): GeoPoint[] {
  const value = collection.valueOf(seq, field);
  if (!Array.isArray(value) || value.length === 0) return [];
  if (typeof value[0] === 'number') return value.length === 2 ? [[value[0] as number, value[1] as number]] : [];
  return (value as unknown[]).filter((p): p is [number, number] => Array.isArray(p) && p.length === 2).map((p) => [p[0], p[1]] as GeoPoint);
}

/** Mask of live documents with a point of `field` inside any of the shapes. */
export function evaluateGeoClause(collection: Collection, field: string, shapes: GeoShape[]): Uint8Array {
  const definition = collection.fieldsByName.get(field);
  if (!definition || !definition.index) throw new ApiError(404, `Could not find a filter field named \`${field}\` in the schema.`);
  if (definition.type !== 'geopoint' && definition.type !== 'geopoint[]') throw new ApiError(400, 'Could not parse the filter query.');
  const mask = new Uint8Array(collection.seqLimit);
  for (let seq = 0; seq < collection.seqLimit; seq++) {
    if (collection.live[seq] !== 1) continue;
    const points = geoPointsOf(collection, seq, field);
    if (points.some((point) => shapes.some((shape) => shapeContains(shape, point)))) mask[seq] = 1;
  }
  return mask;
}

/** Nearest distance (meters, truncated like Typesense's int64) from a document's points to `from`; undefined without points. */
export function nearestDistance(collection: Collection, seq: number, field: string, from: GeoPoint): number | undefined {
  let best: number | undefined;
  for (const point of geoPointsOf(collection, seq, field)) {
    const distance = Math.trunc(geoDistanceMeters(from, point));
    if (best === undefined || distance < best) best = distance;
  }
  return best;
}
