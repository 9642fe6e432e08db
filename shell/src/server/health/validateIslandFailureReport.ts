import { BROWSER_ISLAND_STAGES, isBrowserIslandStage, isIslandErrorCode } from 'contracts';
import type { IslandFailureReport } from '../../shared/islandFailureReport.js';

/** Longest island module name (`./SharedWatchlistImport` is 24). */
export const MAX_MODULE_LENGTH = 100;
/** Longest version string (`0.1.0+0123456789ab` is 18; semver with pre-release and build is more). */
export const MAX_VERSION_LENGTH = 64;
const FIELDS = new Set(['remote', 'module', 'stage', 'code', 'remoteVersion', 'contractsVersion']);
/** Printable ASCII only: these strings end up in an operator's page and logs. */
const PRINTABLE = /^[\x21-\x7e]+$/;

export type IslandFailureReportValidation = { ok: true; report: IslandFailureReport } | { ok: false; error: string };

/**
 * Checks a beacon body: a JSON object with a configured `remote`, a known `stage` and `code`, and
 * optional `module`, `remoteVersion`, `contractsVersion` strings of bounded length; nothing else.
 */
export function validateIslandFailureReport(body: unknown, knownRemotes: ReadonlySet<string>): IslandFailureReportValidation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'the body must be a JSON object' };
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0) return { ok: false, error: `unknown field(s): ${unknown.slice(0, 5).map((key) => key.slice(0, 40)).join(', ')}` };
  const { remote, module, stage, code, remoteVersion, contractsVersion } = record;
  if (typeof remote !== 'string' || !knownRemotes.has(remote)) return { ok: false, error: `remote must be one of: ${[...knownRemotes].join(', ')}` };
  if (!isBrowserIslandStage(stage)) return { ok: false, error: `stage must be one of: ${BROWSER_ISLAND_STAGES.join(', ')}` };
  if (!isIslandErrorCode(code)) return { ok: false, error: 'code must be a KHS-ISLAND-00x code' };
  const report: IslandFailureReport = { remote, stage, code };
  const optional = [
    ['module', module, MAX_MODULE_LENGTH],
    ['remoteVersion', remoteVersion, MAX_VERSION_LENGTH],
    ['contractsVersion', contractsVersion, MAX_VERSION_LENGTH],
  ] as const;
  for (const [name, value, max] of optional) {
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length === 0 || value.length > max || !PRINTABLE.test(value)) {
      return { ok: false, error: `${name} must be a string of 1 to ${max} printable characters` };
    }
    report[name] = value;
  }
  return { ok: true, report };
}
