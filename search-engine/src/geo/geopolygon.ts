/** Typesense's `geopolygon` values as S2 polygons of one loop (`src/geopolygon_index.cpp`). */
import { SphericalLoop } from './spherical-loop.js';

/**
 * Builds the loop of a `geopolygon` value (a flat [lat1, lng1, lat2, lng2, …] array) as
 * Typesense's `GeoPolygonIndex::addPolygon` does: every point kept (no closing point dropped),
 * the loop normalized, then checked as an `S2Polygon`. Returns the loop or S2's error text.
 */
export function geopolygonLoop(coordinates: readonly number[]): { loop: SphericalLoop } | { error: string } {
  const points: [number, number][] = [];
  for (let i = 0; i + 1 < coordinates.length; i += 2) points.push([coordinates[i] as number, coordinates[i + 1] as number]);
  // One vertex is S2's empty or full loop, and a full one is normalized to empty (S2Polygon refuses both).
  if (points.length === 1) return { error: 'Loop 0: empty loops are not allowed' };
  const loop = SphericalLoop.fromDegrees(points);
  const error = loop.validationError();
  if (!error) return { loop };
  // S2Polygon::FindValidationError names the loop for its per-loop checks, not for crossings.
  return { error: error.selfIntersection ? error.text : `Loop 0: ${error.text}` };
}
