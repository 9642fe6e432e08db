/**
 * Reference geometry for the geo tests and the geo bench, written independently of
 * `src/geo/spherical-loop.ts`: the old flat-plane ray casting (what the engine did before)
 * and containment in a convex spherical polygon by the sign of each edge's great-circle normal.
 */

export type LatLng = readonly [number, number];
type Vector = [number, number, number];

/** The unit vector of a [lat, lng] point in degrees. */
export function unitVector([lat, lng]: LatLng): Vector {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lng * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

function cross(a: Vector, b: Vector): Vector {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function dot(a: Vector, b: Vector): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function unit(a: Vector): Vector {
  const n = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / n, a[1] / n, a[2] / n];
}

/** Even-odd ray casting on latitude/longitude as a flat plane: edges are straight lines on the map. */
export function insideFlatPolygon(polygon: readonly LatLng[], [lat, lng]: LatLng): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [yi, xi] = polygon[i] as LatLng;
    const [yj, xj] = polygon[j] as LatLng;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Containment in a convex spherical polygon (smaller than a hemisphere, vertices in either
 * order) with great-circle edges: the point is inside when it lies on the same side of every
 * edge's great circle (the sign of the triple product p · (a × b)) as the vertices' centroid.
 * `margin` is the smallest angular distance (radians, approximately) from the point to an edge's
 * great circle, so callers can leave out points too close to an edge to call.
 */
export function insideConvexSphericalPolygon(polygon: readonly LatLng[], point: LatLng): { inside: boolean; margin: number } {
  const vertices = polygon.map(unitVector);
  const centroid = vertices.reduce<Vector>((sum, v) => [sum[0] + v[0], sum[1] + v[1], sum[2] + v[2]], [0, 0, 0]);
  const p = unitVector(point);
  let inside = true;
  let margin = Number.POSITIVE_INFINITY;
  for (let i = 0; i < vertices.length; i++) {
    const normal = unit(cross(vertices[i] as Vector, vertices[(i + 1) % vertices.length] as Vector));
    const side = dot(normal, p);
    if (Math.sign(side) !== Math.sign(dot(normal, centroid))) inside = false;
    margin = Math.min(margin, Math.abs(side));
  }
  return { inside, margin };
}

/**
 * The latitude (degrees) at longitude `lng` of the great circle through a and b: the points
 * between it and the straight map line a–b are where flat and great-circle edges disagree.
 */
export function greatCircleLatitudeAt(a: LatLng, b: LatLng, lng: number): number {
  const n = cross(unitVector(a), unitVector(b));
  const lambda = (lng * Math.PI) / 180;
  return (Math.atan(-(n[0] * Math.cos(lambda) + n[1] * Math.sin(lambda)) / n[2]) * 180) / Math.PI;
}
