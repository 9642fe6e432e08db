/**
 * Point-in-polygon on the sphere with S2's semantics, which Typesense uses for polygon
 * filters (`src/filter_result_iterator.cpp`: an `S2Loop`, `Normalize()`d) and `geopolygon`
 * fields (`src/geopolygon_index.cpp`: an `S2Polygon` of one normalized `S2Loop`).
 *
 * - Edges are great-circle arcs (the shorter one) between consecutive vertices.
 * - The interior is on the left of the edges (counter-clockwise); `normalize` reverses the
 *   vertex order when that interior is more than half the sphere, so a loop always means the
 *   smaller of its two sides, whichever order the points were given in.
 * - Containment counts crossings of the arc from a fixed reference point (`S2::Origin()`) to the
 *   point, with S2's exact orientation predicate (a floating-point triage, then exact integer
 *   arithmetic, then S2's symbolic perturbation), so a point on an edge or a vertex gets the
 *   answer S2 gives: of two loops sharing that edge or vertex, exactly one contains it.
 *
 * Ported from the algorithms of s2geometry (`s2loop.cc` `BruteForceContains`,
 * `InitOriginAndBound`, `IsNormalized`, `FindValidationError`; `s2predicates.cc` `Sign`,
 * `ExactSign`, `SymbolicallyPerturbedSign`, `OrderedCCW`; `s2edge_crossings.cc` `CrossingSign`,
 * `VertexCrossing`; `s2pointutil.cc` `Ortho`, `Origin`).
 */

/** A unit vector on the sphere. */
export type Vec3 = readonly [number, number, number];

const DEGREE = Math.PI / 180;
const DBL_EPSILON = 2 ** -52;
/** Above this |det| a floating-point triple product of unit vectors has the right sign (S2 `TriageSign`, doubled for safety). */
const MAX_DET_ERROR = 3.6548 * DBL_EPSILON;

/** S2LatLng::FromDegrees(lat, lng).ToPoint(): the same operations in the same order. */
export function pointFromDegrees(lat: number, lng: number): Vec3 {
  const phi = DEGREE * lat;
  const theta = DEGREE * lng;
  const cosPhi = Math.cos(phi);
  return [Math.cos(theta) * cosPhi, Math.sin(theta) * cosPhi, Math.sin(phi)];
}

/** S2::Origin(): the reference point crossings are counted from (near the north pole, on no cell edge). */
const ORIGIN: Vec3 = [-0.0099994664350250197, 0.0025924542609324121, 0.99994664350250195];
const NORTH_POLE: Vec3 = [0, 0, 1];
const SOUTH_POLE: Vec3 = [0, 0, -1];

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function same(a: Vec3, b: Vec3): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

function negated(a: Vec3): Vec3 {
  return [-a[0], -a[1], -a[2]];
}

function normalized(a: Vec3): Vec3 {
  const n = Math.sqrt(dot(a, a));
  return n === 0 ? a : [a[0] / n, a[1] / n, a[2] / n];
}

/** Lexicographic order of points (S2Point's operator<). */
function lessThan(a: Vec3, b: Vec3): boolean {
  if (a[0] !== b[0]) return a[0] < b[0];
  if (a[1] !== b[1]) return a[1] < b[1];
  return a[2] < b[2];
}

// Exact arithmetic: every double is an integer multiple of 2^-1074, so scaling by 2^1074 makes
// the triple product an exact BigInt computation (only reached when the triage is unsure).
const scratchView = new DataView(new ArrayBuffer(8));

function scaledInteger(x: number): bigint {
  if (x === 0) return 0n;
  scratchView.setFloat64(0, x);
  const bits = scratchView.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  // value = mantissa * 2^(exponent - 1075) for normal numbers, mantissa * 2^-1074 for subnormal ones.
  const shift = exponent === 0 ? 0 : exponent - 1;
  if (exponent !== 0) mantissa |= 1n << 52n;
  const scaled = mantissa << BigInt(shift);
  return bits >> 63n ? -scaled : scaled;
}

type ExactVec = readonly [bigint, bigint, bigint];

const exact = (a: Vec3): ExactVec => [scaledInteger(a[0]), scaledInteger(a[1]), scaledInteger(a[2])];
const sgn = (x: bigint): number => (x > 0n ? 1 : x < 0n ? -1 : 0);

/** s2pred::SymbolicallyPerturbedSign: the sign as if each point were moved by its own infinitesimal (points sorted). */
function perturbedSign(a: ExactVec, b: ExactVec, c: ExactVec, bCrossC: ExactVec): number {
  let s = sgn(bCrossC[2]);
  if (s !== 0) return s;
  s = sgn(bCrossC[1]);
  if (s !== 0) return s;
  s = sgn(bCrossC[0]);
  if (s !== 0) return s;
  s = sgn(c[0] * a[1] - c[1] * a[0]);
  if (s !== 0) return s;
  s = sgn(c[0]);
  if (s !== 0) return s;
  s = -sgn(c[1]);
  if (s !== 0) return s;
  s = sgn(c[2] * a[0] - c[0] * a[2]);
  if (s !== 0) return s;
  s = sgn(c[2]);
  if (s !== 0) return s;
  s = sgn(a[0] * b[1] - a[1] * b[0]);
  if (s !== 0) return s;
  s = -sgn(b[0]);
  if (s !== 0) return s;
  s = sgn(b[1]);
  if (s !== 0) return s;
  s = sgn(a[0]);
  if (s !== 0) return s;
  return 1;
}

/** s2pred::ExactSign for three distinct points. */
function exactSign(a: Vec3, b: Vec3, c: Vec3): number {
  let permutation = 1;
  let pa = a;
  let pb = b;
  let pc = c;
  if (lessThan(pb, pa)) {
    [pa, pb] = [pb, pa];
    permutation = -permutation;
  }
  if (lessThan(pc, pb)) {
    [pb, pc] = [pc, pb];
    permutation = -permutation;
  }
  if (lessThan(pb, pa)) {
    [pa, pb] = [pb, pa];
    permutation = -permutation;
  }
  const xa = exact(pa);
  const xb = exact(pb);
  const xc = exact(pc);
  const bCrossC: ExactVec = [xb[1] * xc[2] - xb[2] * xc[1], xb[2] * xc[0] - xb[0] * xc[2], xb[0] * xc[1] - xb[1] * xc[0]];
  const determinant = xa[0] * bCrossC[0] + xa[1] * bCrossC[1] + xa[2] * bCrossC[2];
  const s = sgn(determinant);
  return permutation * (s !== 0 ? s : perturbedSign(xa, xb, xc, bCrossC));
}

/**
 * s2pred::Sign: +1 if a, b, c are counter-clockwise, -1 if clockwise, never 0 for three distinct
 * points (exactly collinear ones get S2's symbolic answer); 0 only when two are equal.
 */
export function orientation(a: Vec3, b: Vec3, c: Vec3): number {
  const det = dot(cross(a, b), c);
  if (det > MAX_DET_ERROR) return 1;
  if (det < -MAX_DET_ERROR) return -1;
  if (same(a, b) || same(b, c) || same(c, a)) return 0;
  return exactSign(a, b, c);
}

/** s2pred::OrderedCCW: whether b is reached before c going counter-clockwise around o from a. */
function orderedCCW(a: Vec3, b: Vec3, c: Vec3, o: Vec3): boolean {
  let sum = 0;
  if (orientation(b, o, a) >= 0) sum++;
  if (orientation(c, o, b) >= 0) sum++;
  if (orientation(a, o, c) > 0) sum++;
  return sum >= 2;
}

/** S2::Ortho: a fixed unit vector orthogonal to a. */
function ortho(a: Vec3): Vec3 {
  const x = Math.abs(a[0]);
  const y = Math.abs(a[1]);
  const z = Math.abs(a[2]);
  const largest = x > y ? (x > z ? 0 : 2) : y > z ? 1 : 2;
  let k = largest - 1;
  if (k < 0) k = 2;
  const temp: [number, number, number] = [0.012, 0.0053, 0.00457];
  temp[k] = 1;
  return normalized(cross(a, temp));
}

/** S2::CrossingSign: 1 if arcs ab and cd cross at a point interior to both, 0 if they share a vertex, else -1. */
export function crossingSign(a: Vec3, b: Vec3, c: Vec3, d: Vec3): number {
  if (same(a, c) || same(a, d) || same(b, c) || same(b, d)) return 0;
  if (same(a, b) || same(c, d)) return -1;
  const acb = -orientation(a, b, c);
  if (orientation(a, b, d) !== acb) return -1;
  if (-orientation(c, d, b) !== acb) return -1;
  return orientation(c, d, a) !== acb ? -1 : 1;
}

/** S2::VertexCrossing: for arcs sharing a vertex, whether ab crosses cd in S2's vertex convention. */
function vertexCrossing(a: Vec3, b: Vec3, c: Vec3, d: Vec3): boolean {
  if (same(a, b) || same(c, d)) return false;
  if (same(a, c)) return same(b, d) || orderedCCW(ortho(a), d, b, a);
  if (same(b, d)) return orderedCCW(ortho(b), c, a, b);
  if (same(a, d)) return same(b, c) || orderedCCW(ortho(a), c, b, a);
  if (same(b, c)) return orderedCCW(ortho(b), d, a, b);
  return false;
}

function edgeOrVertexCrossing(a: Vec3, b: Vec3, c: Vec3, d: Vec3): boolean {
  const crossing = crossingSign(a, b, c, d);
  if (crossing < 0) return false;
  if (crossing > 0) return true;
  return vertexCrossing(a, b, c, d);
}

/** The signed angle the path a → b → c turns at b (S2 `TurnAngle`): positive to the left. */
function turnAngle(a: Vec3, b: Vec3, c: Vec3): number {
  const u = cross(a, b);
  const v = cross(b, c);
  const w = cross(u, v);
  const angle = Math.atan2(Math.sqrt(dot(w, w)), dot(u, v));
  return orientation(a, b, c) > 0 ? angle : -angle;
}

/**
 * One spherical loop (Typesense's `S2Loop` after `Normalize()`): build it from [lat, lng] points
 * with `SphericalLoop.fromDegrees`, check `validationError()`, then ask `contains`.
 */
export class SphericalLoop {
  /** The vertices in the loop's (normalized) order. */
  readonly vertices: Vec3[];
  /** Whether the loop's vertex order was reversed to make it cover at most half the sphere. */
  readonly reversed: boolean;
  private originInside = false;
  /** Per edge i (vertex i → i+1): vertex_i × vertex_i+1, and the orientation of the origin against it. */
  private edgeNormals: Float64Array;
  private originSides: Int8Array;
  /**
   * A latitude/longitude box around the loop (degrees, with a margin), or undefined when the loop
   * is too large for one: `containsDegrees` answers points outside it without any trigonometry.
   */
  private box: LatLngBox | undefined;

  private constructor(vertices: Vec3[]) {
    this.vertices = vertices;
    this.initOrigin();
    this.reversed = !this.isNormalized();
    if (this.reversed) {
      this.vertices.reverse();
      this.initOrigin();
    }
    const n = this.vertices.length;
    this.edgeNormals = new Float64Array(3 * n);
    this.originSides = new Int8Array(n);
    for (let i = 0; i < n; i++) {
      const a = this.vertices[i] as Vec3;
      const b = this.vertices[(i + 1) % n] as Vec3;
      const normal = cross(a, b);
      this.edgeNormals.set(normal, 3 * i);
      this.originSides[i] = orientation(a, b, ORIGIN);
    }
    this.box = boundingBox(this.vertices, this.exactContains(NORTH_POLE) || this.exactContains(SOUTH_POLE));
  }

  /** A loop through [lat, lng] points (degrees), normalized like `S2Loop::Normalize()`. */
  static fromDegrees(points: readonly (readonly [number, number])[]): SphericalLoop {
    return new SphericalLoop(points.map(([lat, lng]) => pointFromDegrees(lat, lng)));
  }

  /**
   * S2's validation of the normalized loop (`S2Loop::FindValidationError`): fewer than 3
   * vertices, a repeated or antipodal consecutive vertex, two edges that cross or a vertex used
   * twice (edges numbered from 0, edge i running from vertex i to vertex i+1), with whether it
   * is one of the last two (S2's self-intersection check). Undefined when valid.
   * Where several edge pairs are at fault S2 reports the first its spatial index visits; this
   * reports the first in edge order (the same when only one pair is at fault).
   */
  validationError(): { text: string; selfIntersection: boolean } | undefined {
    const v = this.vertices;
    const n = v.length;
    const vertexError = (text: string) => ({ text, selfIntersection: false });
    if (n < 3) return vertexError('Non-empty, non-full loops must have at least 3 vertices');
    for (let i = 0; i < n; i++) {
      const next = v[(i + 1) % n] as Vec3;
      if (same(v[i] as Vec3, next)) return vertexError(`Edge ${i} is degenerate (duplicate vertex)`);
      if (same(v[i] as Vec3, negated(next))) return vertexError(`Vertices ${i} and ${(i + 1) % n} are antipodal`);
    }
    // Only edges whose boxes overlap can meet: a sweep along x keeps this near n log n for the
    // long polygons a geopolygon field may hold, instead of testing all n² pairs.
    let first: { i: number; j: number; text: string } | undefined;
    for (const [i, j] of overlappingEdgePairs(v)) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue; // adjacent edges share a vertex by design
      if (first && (i > first.i || (i === first.i && j > first.j))) continue;
      const b = v[(i + 1) % n] as Vec3;
      const d = v[(j + 1) % n] as Vec3;
      const crossing = crossingSign(v[i] as Vec3, b, v[j] as Vec3, d);
      if (crossing > 0) first = { i, j, text: `Edge ${i} crosses edge ${j}` };
      else if (crossing === 0 && same(b, d)) first = { i, j, text: `Edge ${i} has duplicate vertex with edge ${j}` };
    }
    return first && { text: first.text, selfIntersection: true };
  }

  /** Whether the loop contains the point at [lat, lng] degrees. */
  containsDegrees(lat: number, lng: number): boolean {
    const box = this.box;
    // (A latitude beyond ±90°, which no stored point has, is left to the vector test.)
    if (box && lat >= -90 && lat <= 90) {
      if (lat < box.south || lat > box.north) return false;
      // Degrees east of the box's west side, in [0, 360).
      const east = (((lng - box.west) % 360) + 360) % 360;
      if (east > box.east - box.west) return false;
    }
    return this.contains(pointFromDegrees(lat, lng));
  }

  /**
   * Whether the loop contains the unit vector p (S2Loop::Contains). Fast path: the signs of
   * p's great circle through the origin against each vertex, and of each edge's great circle
   * against p, by floating-point triple products; anything near zero (p on or next to an edge
   * or a vertex) takes the exact path.
   */
  contains(p: Vec3): boolean {
    const v = this.vertices;
    const n = v.length;
    if (n < 3) return this.originInside;
    // q = origin × p: the sign of q·x tells on which side of the great circle through origin and p x lies.
    const qx = ORIGIN[1] * p[2] - ORIGIN[2] * p[1];
    const qy = ORIGIN[2] * p[0] - ORIGIN[0] * p[2];
    const qz = ORIGIN[0] * p[1] - ORIGIN[1] * p[0];
    const last = v[n - 1] as Vec3;
    let previousSide = qx * last[0] + qy * last[1] + qz * last[2];
    if (previousSide <= MAX_DET_ERROR && previousSide >= -MAX_DET_ERROR) return this.exactContains(p);
    let inside = this.originInside;
    const normals = this.edgeNormals;
    for (let i = 0; i < n; i++) {
      const vertex = v[i] as Vec3;
      const side = qx * vertex[0] + qy * vertex[1] + qz * vertex[2];
      if (side <= MAX_DET_ERROR && side >= -MAX_DET_ERROR) return this.exactContains(p);
      // Edge (i-1 → i) can cross the arc origin→p only if its ends lie on opposite sides of that great circle.
      if (side > 0 !== previousSide > 0) {
        const e = 3 * ((i + n - 1) % n);
        const pSide = (normals[e] as number) * p[0] + (normals[e + 1] as number) * p[1] + (normals[e + 2] as number) * p[2];
        if (pSide <= MAX_DET_ERROR && pSide >= -MAX_DET_ERROR) return this.exactContains(p);
        // Crossing: p and the origin on opposite sides of the edge's great circle, with the orientations matching.
        const originSide = this.originSides[(i + n - 1) % n] as number;
        const acb = previousSide > 0 ? -1 : 1;
        if ((pSide > 0 ? 1 : -1) === -acb && originSide === acb) inside = !inside;
      }
      previousSide = side;
    }
    return inside;
  }

  /** S2Loop::BruteForceContains with every predicate exact. */
  private exactContains(p: Vec3): boolean {
    const v = this.vertices;
    const n = v.length;
    if (n < 3) return this.originInside;
    let inside = this.originInside;
    for (let i = 1; i <= n; i++) {
      if (edgeOrVertexCrossing(ORIGIN, p, v[i - 1] as Vec3, v[i % n] as Vec3)) inside = !inside;
    }
    return inside;
  }

  /**
   * S2Loop::InitOriginAndBound: whether the origin is inside, found by checking vertex 1, which
   * the loop contains exactly when the fixed direction Ortho(v1) lies in the wedge v0, v1, v2.
   */
  private initOrigin(): void {
    const v = this.vertices;
    this.originInside = false;
    if (v.length < 3) return;
    const v0 = v[0] as Vec3;
    const v1 = v[1] as Vec3;
    const v2 = v[2] as Vec3;
    const v1Inside = orderedCCW(ortho(v1), v0, v2, v1);
    if (v1Inside !== this.exactContains(v1)) this.originInside = true;
  }

  /**
   * S2Loop::IsNormalized: true when the loop's longitude span is under 180° (then it cannot
   * cover more than half the sphere), else when its curvature (turning angle) is not negative,
   * i.e. its area is at most 2π.
   */
  private isNormalized(): boolean {
    const v = this.vertices;
    if (v.length < 3) return true;
    if (!this.exactContains(NORTH_POLE) && !this.exactContains(SOUTH_POLE) && longitudeSpan(v) < Math.PI) return true;
    return curvature(v) >= -9.73 * DBL_EPSILON * v.length;
  }
}

/**
 * S2::GetCurvature (s2loop_measures.cc): the sum of the turn angles after removing duplicate
 * vertices and A-B-A spikes, added in a canonical order (from the smallest vertex, in the
 * direction giving the smaller vertex sequence) with Kahan summation, so the answer does not
 * depend on where the loop starts — and invalid loops are normalized as S2 normalizes them.
 */
function curvature(loop: Vec3[]): number {
  const v = pruneDegeneracies(loop);
  const n = v.length;
  if (n === 0) return 2 * Math.PI;
  const at = (i: number): Vec3 => v[((i % n) + n) % n] as Vec3;
  const { first, dir } = canonicalOrder(v);
  let i = first;
  let sum = turnAngle(at(i - dir), at(i), at(i + dir));
  let compensation = 0;
  for (let left = n - 1; left > 0; left--) {
    i += dir;
    let angle = turnAngle(at(i - dir), at(i), at(i + dir));
    const oldSum = sum;
    angle += compensation;
    sum += angle;
    compensation = oldSum - sum + angle;
  }
  const maxCurvature = 2 * Math.PI - 4 * DBL_EPSILON;
  sum += compensation;
  return Math.max(-maxCurvature, Math.min(maxCurvature, dir * sum));
}

/** S2::PruneDegeneracies: without repeated vertices and A-B-A edge pairs (empty if nothing is left). */
function pruneDegeneracies(loop: Vec3[]): Vec3[] {
  const kept: Vec3[] = [];
  for (const p of loop) {
    if (kept.length > 0 && same(p, kept[kept.length - 1] as Vec3)) continue;
    if (kept.length >= 2 && same(p, kept[kept.length - 2] as Vec3)) kept.pop();
    else kept.push(p);
  }
  if (kept.length < 3) return [];
  if (same(kept[0] as Vec3, kept[kept.length - 1] as Vec3)) kept.pop();
  let k = 0;
  while (same(kept[k + 1] as Vec3, kept[kept.length - 1 - k] as Vec3)) k++;
  return kept.slice(k, kept.length - k);
}

/** S2::GetCanonicalLoopOrder: the start (a smallest vertex) and direction giving the smallest vertex sequence. */
function canonicalOrder(v: Vec3[]): { first: number; dir: number } {
  const n = v.length;
  const at = (i: number): Vec3 => v[((i % n) + n) % n] as Vec3;
  let minIndices = [0];
  for (let i = 1; i < n; i++) {
    const smallest = v[minIndices[0] as number] as Vec3;
    if (lessThan(v[i] as Vec3, smallest)) minIndices = [i];
    else if (same(v[i] as Vec3, smallest)) minIndices.push(i);
  }
  const isLess = (a: { first: number; dir: number }, b: { first: number; dir: number }): boolean => {
    if (a.first === b.first && a.dir === b.dir) return false;
    let i1 = a.first;
    let i2 = b.first;
    for (let left = n - 1; left > 0; left--) {
      i1 += a.dir;
      i2 += b.dir;
      if (lessThan(at(i1), at(i2))) return true;
      if (lessThan(at(i2), at(i1))) return false;
    }
    return false;
  };
  let best = { first: minIndices[0] as number, dir: 1 };
  for (const index of minIndices) {
    for (const dir of [1, -1]) {
      const candidate = { first: index, dir };
      if (isLess(candidate, best)) best = candidate;
    }
  }
  return best;
}

/**
 * Pairs [i, j] (i < j) of a loop's edges (edge i: vertex i → i+1) whose 3-D boxes overlap. An
 * arc stays within its chord's box widened by the arc's sagitta, 1 − cos(θ/2), on every axis.
 */
function overlappingEdgePairs(v: Vec3[]): [number, number][] {
  const n = v.length;
  const boxes = new Float64Array(6 * n);
  for (let i = 0; i < n; i++) {
    const a = v[i] as Vec3;
    const b = v[(i + 1) % n] as Vec3;
    const sagitta = 1 - Math.sqrt(Math.max(0, (1 + dot(a, b)) / 2)) + 1e-12;
    for (let axis = 0; axis < 3; axis++) {
      boxes[6 * i + axis] = Math.min(a[axis] as number, b[axis] as number) - sagitta;
      boxes[6 * i + 3 + axis] = Math.max(a[axis] as number, b[axis] as number) + sagitta;
    }
  }
  const byWest = Array.from({ length: n }, (_, i) => i).sort((x, y) => (boxes[6 * x] as number) - (boxes[6 * y] as number));
  const pairs: [number, number][] = [];
  for (let k = 0; k < n; k++) {
    const i = byWest[k] as number;
    for (let m = k + 1; m < n; m++) {
      const j = byWest[m] as number;
      if ((boxes[6 * j] as number) > (boxes[6 * i + 3] as number)) break;
      const overlaps =
        (boxes[6 * j + 1] as number) <= (boxes[6 * i + 4] as number) &&
        (boxes[6 * i + 1] as number) <= (boxes[6 * j + 4] as number) &&
        (boxes[6 * j + 2] as number) <= (boxes[6 * i + 5] as number) &&
        (boxes[6 * i + 2] as number) <= (boxes[6 * j + 5] as number);
      if (overlaps) pairs.push(i < j ? [i, j] : [j, i]);
    }
  }
  return pairs;
}

/** A latitude/longitude box (degrees); `west` to `east` eastward, `east` possibly past 180. */
interface LatLngBox {
  south: number;
  north: number;
  west: number;
  east: number;
}

/** Margin added around a box (degrees, ≈ 1 cm): far above the rounding of the values compared. */
const BOX_MARGIN = 1e-7;

/**
 * The latitude/longitude box of a normalized loop's edges (S2LatLngRectBounder's idea), or
 * undefined when the loop holds a pole or has an edge of nearly 180° of longitude. Longitudes:
 * the edges form one connected path whose longitude moves by each edge's shorter difference, so
 * the path covers the range of the running sum. Latitudes: the vertices', widened where an edge's
 * arc passes its great circle's northernmost or southernmost point. A point inside a loop that
 * holds neither pole lies within both ranges (its meridian leaves the loop northwards and
 * southwards, crossing the boundary at that longitude).
 */
function boundingBox(vertices: Vec3[], holdsPole: boolean): LatLngBox | undefined {
  const n = vertices.length;
  if (n < 3 || holdsPole) return undefined;
  const toDegrees = 180 / Math.PI;
  const latitude = (p: Vec3): number => Math.atan2(p[2], Math.hypot(p[0], p[1])) * toDegrees;
  const longitude = (p: Vec3): number => Math.atan2(p[1], p[0]) * toDegrees;
  let south = Number.POSITIVE_INFINITY;
  let north = Number.NEGATIVE_INFINITY;
  const startLng = longitude(vertices[0] as Vec3);
  let travelled = 0;
  let westmost = 0;
  let eastmost = 0;
  for (let i = 0; i < n; i++) {
    const a = vertices[i] as Vec3;
    const b = vertices[(i + 1) % n] as Vec3;
    const lat = latitude(a);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    let step = longitude(b) - longitude(a);
    if (step > 180) step -= 360;
    else if (step < -180) step += 360;
    if (Math.abs(step) > 179) return undefined;
    travelled += step;
    westmost = Math.min(westmost, travelled);
    eastmost = Math.max(eastmost, travelled);
    // The great circle's northernmost point m (and southernmost, −m), if the arc a→b passes it.
    const normal = cross(a, b);
    const m: Vec3 = [-normal[0] * normal[2], -normal[1] * normal[2], normal[0] * normal[0] + normal[1] * normal[1]];
    if (m[2] === 0) continue; // the equator, or a degenerate edge
    for (const extreme of [m, negated(m)]) {
      if (dot(cross(a, extreme), normal) > 0 && dot(cross(extreme, b), normal) > 0) {
        const lat = latitude(extreme);
        south = Math.min(south, lat);
        north = Math.max(north, lat);
      }
    }
  }
  if (eastmost - westmost >= 360 - 2 * BOX_MARGIN) return undefined;
  return { south: south - BOX_MARGIN, north: north + BOX_MARGIN, west: startLng + westmost - BOX_MARGIN, east: startLng + eastmost + BOX_MARGIN };
}

/** The smallest longitude arc (radians) holding every vertex: 2π minus the widest gap between them. */
function longitudeSpan(vertices: Vec3[]): number {
  const longitudes = vertices.map((p) => Math.atan2(p[1], p[0])).sort((a, b) => a - b);
  let widestGap = (longitudes[0] as number) + 2 * Math.PI - (longitudes[longitudes.length - 1] as number);
  for (let i = 1; i < longitudes.length; i++) widestGap = Math.max(widestGap, (longitudes[i] as number) - (longitudes[i - 1] as number));
  return 2 * Math.PI - widestGap;
}
