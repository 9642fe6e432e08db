import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import { geopolygonLoop } from '../geo/geopolygon.js';
import { pointFromDegrees, SphericalLoop, type Vec3 } from '../geo/spherical-loop.js';

/** S2's Earth radius (s2/s2earth.h), which Typesense uses to turn a filter radius into an angle. */
const S2_EARTH_RADIUS_METERS = 6371010;

/**
 * Typesense's sort distances (`GeoPoint::distance` in `include/field.h`): the S2 haversine angle
 * times 3958.75 miles times 1609 m, truncated to an integer — a slightly smaller Earth than the
 * filter's, kept so `geo_distance_meters` and distance ties match Typesense's.
 */
const SORT_EARTH_RADIUS_MILES = 3958.75;
const SORT_METERS_PER_MILE = 1609.0;

/** A document without the geo field sorts at this distance (Typesense's INT32_MAX in `Index::get_geo_distance`). */
export const MISSING_GEO_DISTANCE = 2147483647;

/** A point as Typesense stores a `geopoint`: [lat, lng]. */
export type GeoPoint = readonly [number, number];

/** One geo filter shape on a geopoint field, ready to test points. */
export type GeoShape = { kind: 'radius'; center: Vec3; chordLength2: number } | { kind: 'polygon'; loop: SphericalLoop };

/**
 * A stored coordinate as Typesense keeps it for filtering and sorting (`GeoPoint::pack_lat_lng`:
 * degrees × 10^6 as an int32, so truncated to 6 decimals, about 0.1 m).
 */
export function packedCoordinate(degrees: number): number {
  return Math.trunc(degrees * 1000000) / 1000000;
}

/**
 * Typesense's sort distance in meters between two points (`GeoPoint::distance` of
 * `S2LatLng::GetDistance`, the haversine formula in S2's operation order), truncated.
 */
export function sortDistanceMeters(a: GeoPoint, b: GeoPoint): number {
  const toRadians = Math.PI / 180;
  const lat1 = toRadians * a[0];
  const lat2 = toRadians * b[0];
  const dLat = Math.sin(0.5 * (lat2 - lat1));
  const dLng = Math.sin(0.5 * (toRadians * b[1] - toRadians * a[1]));
  const x = dLat * dLat + dLng * dLng * Math.cos(lat1) * Math.cos(lat2);
  const radians = 2 * Math.asin(Math.sqrt(Math.min(1, x)));
  return Math.trunc(SORT_EARTH_RADIUS_MILES * radians * SORT_METERS_PER_MILE);
}

/**
 * Whether a shape holds the point at [lat, lng] degrees (S2Cap::Contains by chord length; the
 * loop's S2 containment, which skips points outside the loop's box without trigonometry).
 */
export function shapeContains(shape: GeoShape, lat: number, lng: number): boolean {
  if (shape.kind === 'polygon') return shape.loop.containsDegrees(lat, lng);
  const p = pointFromDegrees(lat, lng);
  const dx = shape.center[0] - p[0];
  const dy = shape.center[1] - p[1];
  const dz = shape.center[2] - p[2];
  return dx * dx + dy * dy + dz * dz <= shape.chordLength2;
}

const FORMAT_ERROR = (field: string): string =>
  `Value of filter field \`${field}\`: must be in the \`(-44.50, 170.29, 0.75 km)\` or (56.33, -65.97, 23.82, -127.82) format.`;

/** Typesense's answer for a `geopolygon` field filtered with anything but one point (`src/filter.cpp`). */
const GEOPOLYGON_FILTER_ERROR = 'Value of geopolygon filter field must be in the format `(-44.50, 170.29)`';

function isFloat(text: string): boolean {
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(text);
}

/**
 * Builds the loop of a polygon filter as Typesense does (`src/filter_result_iterator.cpp`): a
 * last point equal to the first is dropped (the ring may be given closed), the `S2Loop` is
 * normalized, so the polygon is the smaller side of its edges whatever the points' order
 * (clockwise or counter-clockwise; larger than a hemisphere means its complement), then validated.
 */
function polygonShape(numbers: number[], position: number | undefined): GeoShape {
  const points: [number, number][] = [];
  for (let i = 0; i + 1 < numbers.length; i += 2) points.push([numbers[i] as number, numbers[i + 1] as number]);
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]) points.pop();
  const loop = SphericalLoop.fromDegrees(points);
  const error = loop.validationError();
  if (error) throw new ApiError(400, `Polygon${position === undefined ? '' : ` at position ${position}`} is invalid: ${error.text}`);
  return { kind: 'polygon', loop };
}

/** Parses the inside of `( … )` on a geopoint field: `lat, lng, 5 km` (radius) or `lat1, lng1, lat2, lng2, …` (polygon). */
function parseShape(field: string, body: string, position: number | undefined): GeoShape {
  const parts = body.split(',').map((p) => p.trim());
  if (parts.length < 3) throw new ApiError(400, FORMAT_ERROR(field));
  if (parts.every(isFloat)) {
    // Typesense reads pairs and would ignore an unpaired last number; a clear 400 instead (README, differences).
    if (parts.length % 2 !== 0) throw new ApiError(400, `Polygon of filter field \`${field}\` must have an even number of coordinates: lat1, lng1, lat2, lng2, …`);
    return polygonShape(parts.map(Number), position);
  }
  if (parts.length !== 3 || !isFloat(parts[0] as string) || !isFloat(parts[1] as string)) throw new ApiError(400, FORMAT_ERROR(field));
  const distance = (parts[2] as string).replace(/\s+/g, '');
  const unit = distance.slice(-2);
  if (distance.length < 2 || (unit !== 'km' && unit !== 'mi')) throw new ApiError(400, 'Unit must be either `km` or `mi`.');
  const amount = distance.slice(0, -2);
  if (!isFloat(amount)) throw new ApiError(400, FORMAT_ERROR(field));
  // Typesense reads the radius with std::stof (single precision) and makes it an S2Cap of that angle.
  const meters = Math.fround(Number(amount)) * (unit === 'km' ? 1000 : 1609.34);
  const radians = Math.min(Math.PI, meters / S2_EARTH_RADIUS_METERS);
  const chord = 2 * Math.sin(0.5 * radians);
  return { kind: 'radius', center: pointFromDegrees(Number(parts[0]), Number(parts[1])), chordLength2: chord * chord };
}

/** Parses a `geopolygon` field's filter value `(lat, lng)`: the point whose containing polygons are wanted. */
function parseGeopolygonPoint(field: string, body: string): Vec3 {
  const parts = body.split(',').map((p) => p.trim());
  if (parts.length !== 2) throw new ApiError(400, GEOPOLYGON_FILTER_ERROR);
  if (!isFloat(parts[0] as string) || !isFloat(parts[1] as string)) throw new ApiError(400, FORMAT_ERROR(field));
  return pointFromDegrees(Number(parts[0]), Number(parts[1]));
}

/** Prefix of the placeholder field names geo clauses are replaced with (a control character no schema field has). */
export const GEO_PLACEHOLDER = '\u0001geo';

/** One geo clause taken out of a `filter_by`: its field and the insides of its parentheses. */
export interface GeoClause {
  field: string;
  bodies: string[];
}

/** Geo clauses taken out of a `filter_by`, by placeholder field name. */
export interface ExtractedGeo {
  filterBy: string;
  clauses: Map<string, GeoClause>;
}

// `field:(…)` or `field:[(…), (…)]` where the parentheses hold numbers, commas and a unit.
// A field name starts only where a name may start (the lookbehind), so a long run of name
// characters without a colon is scanned once, not once per starting position.
const GEO_CLAUSE = /(?<![^\s()&|:`])([^\s()&|:`]+)\s*:\s*(\[\s*\([^()]*\)(?:\s*,\s*\([^()]*\))*\s*\]|\([^()]*\))/g;

/**
 * Replaces each geo clause (`location:(48.85, 2.34, 5 km)`, a polygon, a list of shapes in
 * `[ ]`, any matching; `area:(48.85, 2.34)` on a `geopolygon` field) with a placeholder clause
 * the filter parser accepts, so the rest of `filter_by` is parsed as before;
 * `evaluateGeoClause` parses and answers the placeholders once the field's type is known.
 */
export function extractGeoClauses(filterBy: string): ExtractedGeo {
  const clauses = new Map<string, GeoClause>();
  const rewritten = filterBy.replace(GEO_CLAUSE, (whole: string, field: string, value: string) => {
    const bodies = [...value.matchAll(/\(([^()]*)\)/g)].map((m) => m[1] as string);
    // Grouping parentheses hold clauses (a colon); geo parentheses hold only numbers and units.
    if (bodies.some((b) => b.includes(':'))) return whole;
    const name = `${GEO_PLACEHOLDER}${clauses.size}`;
    clauses.set(name, { field, bodies });
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

// Loops of stored geopolygon values, by the value's array (a write stores a new array, so a
// changed document is never answered from an old loop and a removed one can be collected).
const geopolygonLoops = new WeakMap<object, SphericalLoop | null>();

function storedGeopolygon(value: unknown): SphericalLoop | null {
  if (!Array.isArray(value)) return null;
  let loop = geopolygonLoops.get(value);
  if (loop === undefined) {
    const built = geopolygonLoop(value as number[]);
    loop = 'loop' in built ? built.loop : null;
    geopolygonLoops.set(value, loop);
  }
  return loop;
}

/**
 * Mask of live documents matching a geo clause: on a geopoint field, a point inside any of the
 * shapes; on a `geopolygon` field, a polygon containing the point (Typesense reads only the first
 * value of a list there: `filter_result_iterator.cpp` uses `a_filter.values[0]`).
 */
export function evaluateGeoClause(collection: Collection, clause: GeoClause): Uint8Array {
  const { field, bodies } = clause;
  const definition = collection.fieldsByName.get(field);
  if (!definition || !definition.index) throw new ApiError(404, `Could not find a filter field named \`${field}\` in the schema.`);
  const mask = new Uint8Array(collection.seqLimit);
  if (definition.type === 'geopolygon') {
    // Every value is checked (src/filter.cpp), only the first is searched.
    const [point] = bodies.map((body) => parseGeopolygonPoint(field, body)) as [Vec3];
    for (let seq = 0; seq < collection.seqLimit; seq++) {
      if (collection.live[seq] !== 1) continue;
      if (storedGeopolygon(collection.valueOf(seq, field))?.contains(point)) mask[seq] = 1;
    }
    return mask;
  }
  if (definition.type !== 'geopoint' && definition.type !== 'geopoint[]') throw new ApiError(400, 'Could not parse the filter query.');
  const shapes = bodies.map((body, index) => parseShape(field, body, bodies.length > 1 ? index + 1 : undefined));
  for (let seq = 0; seq < collection.seqLimit; seq++) {
    if (collection.live[seq] !== 1) continue;
    for (const point of geoPointsOf(collection, seq, field)) {
      // Typesense tests the stored (packed) coordinates.
      const lat = packedCoordinate(point[0]);
      const lng = packedCoordinate(point[1]);
      if (shapes.some((shape) => shapeContains(shape, lat, lng))) {
        mask[seq] = 1;
        break;
      }
    }
  }
  return mask;
}

/**
 * Nearest sort distance (meters, Typesense's `GeoPoint::distance` between packed points) from a
 * document's points to `from`; `MISSING_GEO_DISTANCE` without points, as Typesense sorts them.
 */
export function nearestDistance(collection: Collection, seq: number, field: string, from: GeoPoint): number {
  const reference: GeoPoint = [packedCoordinate(from[0]), packedCoordinate(from[1])];
  let best = MISSING_GEO_DISTANCE;
  for (const point of geoPointsOf(collection, seq, field)) {
    const distance = sortDistanceMeters([packedCoordinate(point[0]), packedCoordinate(point[1])], reference);
    if (distance < best) best = distance;
  }
  return best;
}
