// Stable error codes for island loading and rendering. Browsers report them in failure beacons, the
// server logs them, and `/health/remotes` counts them, so a code keeps its meaning once published:
// add new codes, never renumber or reuse one.

/** Every island failure code, with what it means for the people reading logs and the health view. */
export const ISLAND_ERROR_CODES = Object.freeze({
  'KHS-ISLAND-001': 'The remote manifest could not be fetched or is not a valid manifest.',
  'KHS-ISLAND-002': 'The remote entry or one of its chunks failed to load.',
  'KHS-ISLAND-003': 'Loading the remote took longer than the load timeout and was aborted.',
  'KHS-ISLAND-004': 'The remote was built against an incompatible contracts major version.',
  'KHS-ISLAND-005': 'The remote implements another island API version.',
  'KHS-ISLAND-006': 'The remote does not expose the requested island module.',
  'KHS-ISLAND-007': 'Mounting or hydrating the island threw in the browser.',
  'KHS-ISLAND-008': 'Rendering the island on the server failed.',
  'KHS-ISLAND-009': 'The page names an island of a remote it has not configured, or gives it props that are not JSON.',
  'KHS-ISLAND-010': "The island's server HTML did not match its browser render; React threw the server HTML away and rendered it in the browser.",
} as const);

/** One of the stable island failure codes. */
export type IslandErrorCode = keyof typeof ISLAND_ERROR_CODES;

/** Whether `value` is one of the published island failure codes. */
export function isIslandErrorCode(value: unknown): value is IslandErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ISLAND_ERROR_CODES, value);
}

/**
 * Where a browser saw an island fail: the `stage` of a failure beacon. Which codes each stage
 * carries is the code table in contracts' README ("Island failure codes", browser column).
 */
export const BROWSER_ISLAND_STAGES = Object.freeze(['manifest', 'entry', 'expose', 'compatibility', 'mount', 'hydrate'] as const);

/** One stage of {@link BROWSER_ISLAND_STAGES}. */
export type BrowserIslandStage = (typeof BROWSER_ISLAND_STAGES)[number];

/**
 * Where the shell's server saw a remote fail, with the code its failure line carries when the
 * error names none of its own (a build without a server `render` is `load` with
 * `KHS-ISLAND-006`).
 */
export const SERVER_ISLAND_STAGE_CODES = Object.freeze({
  manifest: 'KHS-ISLAND-001',
  load: 'KHS-ISLAND-002',
  timeout: 'KHS-ISLAND-003',
  compatibility: 'KHS-ISLAND-004',
  version: 'KHS-ISLAND-005',
  render: 'KHS-ISLAND-008',
} as const satisfies Record<string, IslandErrorCode>);

/** One stage of {@link SERVER_ISLAND_STAGE_CODES}. */
export type ServerIslandStage = keyof typeof SERVER_ISLAND_STAGE_CODES;

/** Whether `value` is a stage a browser may report. */
export function isBrowserIslandStage(value: unknown): value is BrowserIslandStage {
  return typeof value === 'string' && (BROWSER_ISLAND_STAGES as readonly string[]).includes(value);
}
