// What a browser sends to the shell about a page: the builds it ran (one view each) and the island
// failures it saw, batched in one beacon. Shared by the shell's browser runtime (sender) and its
// server (validation, counting for `/health/remotes` and the canary rule).
import type { BrowserIslandStage, IslandErrorCode } from 'contracts';

/** Same-origin path the browser beacons page reports (and single island failures) to (POST, JSON body, no CSRF token). */
export const ISLAND_FAILURE_REPORT_PATH = '/api/island-failures';

/** One island failure as reported by a browser. */
export interface IslandFailureReport {
  /** Remote name as in the registry (`remote` of `remote/Module`). */
  remote: string;
  /** Island module, `./Module`, when known. */
  module?: string;
  /** The lifecycle stage at which the island failed (contracts `BROWSER_ISLAND_STAGES`). */
  stage: BrowserIslandStage;
  code: IslandErrorCode;
  /** The remote's deployed build version from its manifest, when it was read. */
  remoteVersion?: string;
  /** The contracts version the remote was built against, from its manifest, when it was read. */
  contractsVersion?: string;
}

/** Most failures one page report carries (the browser sends no more; the server refuses more). */
export const MAX_FAILURES_PER_PAGE_REPORT = 10;

/**
 * One beacon of a page: the remotes' builds it ran since its last report (remote → build version,
 * each one page view of that build, sent once per page) and the failures seen since then.
 * At least one of the two is present.
 */
export interface PageReport {
  views?: Record<string, string>;
  failures?: IslandFailureReport[];
}
