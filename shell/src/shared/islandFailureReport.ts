// What a browser sends to the shell when an island fails (the failure beacon), shared by the shell's
// browser runtime (sender) and its server (validation, counting for `/health/remotes`).
import type { BrowserIslandStage, IslandErrorCode } from 'contracts';

/** Same-origin path the browser beacons island failures to (POST, JSON body, no CSRF token). */
export const ISLAND_FAILURE_REPORT_PATH = '/api/island-failures';

/** One island failure as reported by a browser. */
export interface IslandFailureReport {
  /** Remote name as in the registry, e.g. `mf-survey`. */
  remote: string;
  /** Island module, e.g. `./SurveyIsland`, when known. */
  module?: string;
  /** The lifecycle stage at which the island failed (contracts `BROWSER_ISLAND_STAGES`). */
  stage: BrowserIslandStage;
  code: IslandErrorCode;
  /** The remote's deployed build version from its manifest, when it was read. */
  remoteVersion?: string;
  /** The contracts version the remote was built against, from its manifest, when it was read. */
  contractsVersion?: string;
}
