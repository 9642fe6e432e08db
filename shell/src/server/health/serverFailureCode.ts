import { isIslandErrorCode, type IslandErrorCode } from 'contracts';
import type { ServerIslandStage } from '../federation/failureLog.js';

/** The stable code of each stage at which a remote fails on the shell's server. */
export const SERVER_STAGE_CODES: Record<ServerIslandStage, IslandErrorCode> = {
  manifest: 'KHS-ISLAND-001',
  load: 'KHS-ISLAND-002',
  version: 'KHS-ISLAND-005',
  render: 'KHS-ISLAND-008',
  // The island did not render within its budget (load plus render): a server render failure.
  timeout: 'KHS-ISLAND-008',
};

/** The code of a server-side failure: the error's own stable code when it has one, else its stage's. */
export function serverFailureCode(stage: ServerIslandStage, error: unknown): IslandErrorCode {
  const own = (error as { code?: unknown } | null)?.code;
  return isIslandErrorCode(own) ? own : SERVER_STAGE_CODES[stage];
}
