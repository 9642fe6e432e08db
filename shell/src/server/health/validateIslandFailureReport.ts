import { BROWSER_ISLAND_STAGES, isBrowserIslandStage, isIslandErrorCode } from 'contracts';
import { MAX_FAILURES_PER_PAGE_REPORT, type IslandFailureReport } from '../../shared/islandFailureReport.js';

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
  if (!isIslandErrorCode(code)) return { ok: false, error: 'code must be a published KHS-ISLAND-0xx code' };
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

/** A valid page report: the views (remote → build version) and failures to count. */
export interface ValidPageReport {
  views: Array<[remote: string, buildVersion: string]>;
  failures: IslandFailureReport[];
}

export type PageReportValidation = { ok: true; report: ValidPageReport } | { ok: false; error: string };

const validVersion = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_VERSION_LENGTH && PRINTABLE.test(value);

/**
 * Checks a beacon body: a page report `{ views?, failures? }` (views: configured remote → build
 * version; failures: at most `MAX_FAILURES_PER_PAGE_REPORT` failure reports), or one failure report
 * alone (the older beacon, still accepted). All or nothing: one bad part refuses the whole body.
 */
export function validatePageReport(body: unknown, knownRemotes: ReadonlySet<string>): PageReportValidation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'the body must be a JSON object' };
  const record = body as Record<string, unknown>;
  if ('remote' in record) {
    const single = validateIslandFailureReport(body, knownRemotes);
    return single.ok ? { ok: true, report: { views: [], failures: [single.report] } } : single;
  }
  const unknown = Object.keys(record).filter((key) => key !== 'views' && key !== 'failures');
  if (unknown.length > 0) return { ok: false, error: `unknown field(s): ${unknown.slice(0, 5).map((key) => key.slice(0, 40)).join(', ')}` };
  const { views = {}, failures = [] } = record;
  if (typeof views !== 'object' || views === null || Array.isArray(views)) return { ok: false, error: 'views must be an object of remote → build version' };
  const viewEntries = Object.entries(views as Record<string, unknown>);
  if (viewEntries.length > knownRemotes.size) return { ok: false, error: `views name at most ${knownRemotes.size} remotes` };
  for (const [remote, version] of viewEntries) {
    if (!knownRemotes.has(remote)) return { ok: false, error: `views: remote must be one of: ${[...knownRemotes].join(', ')}` };
    if (!validVersion(version)) return { ok: false, error: `views: the build version of ${remote} must be a string of 1 to ${MAX_VERSION_LENGTH} printable characters` };
  }
  if (!Array.isArray(failures) || failures.length > MAX_FAILURES_PER_PAGE_REPORT) {
    return { ok: false, error: `failures must be a list of at most ${MAX_FAILURES_PER_PAGE_REPORT} failure reports` };
  }
  const valid: IslandFailureReport[] = [];
  for (const [index, failure] of failures.entries()) {
    const checked = validateIslandFailureReport(failure, knownRemotes);
    if (!checked.ok) return { ok: false, error: `failures[${index}]: ${checked.error}` };
    valid.push(checked.report);
  }
  if (viewEntries.length === 0 && valid.length === 0) return { ok: false, error: 'a page report needs views or failures' };
  return { ok: true, report: { views: viewEntries as Array<[string, string]>, failures: valid } };
}
