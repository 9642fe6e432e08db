import type { RateWindow } from '../slidingWindows/slidingWindows.js';

/**
 * A per-address rate limit, shared by every shell instance: `max` requests per fixed window of
 * `windowMs`, or `windows`, sliding windows (at most `max` accepted in any `windowMs`, each at once).
 */
export interface EdgeRateLimitDeclaration {
  /** Requests per fixed window (with `windowMs`; not with `windows`). */
  max?: number;
  windowMs?: number;
  /** Sliding windows, e.g. `[{ max: 10, windowMs: 60000 }, { max: 200, windowMs: 3600000 }]` (not with `max`/`windowMs`). */
  windows?: RateWindow[];
  /** Counted per value of this path parameter too; a value longer than `maxLength` counts with every other such value. */
  scope?: { pathParameter: string; maxLength: number };
  /** Why this number, for people. */
  why?: string;
}

export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const RATE_LIMIT_KEYS = new Set(['max', 'windowMs', 'windows', 'scope', 'why']);
const SCOPE_KEYS = new Set(['pathParameter', 'maxLength']);

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const isPositiveInteger = (value: unknown, max: number): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;

export function unknownKeys(value: Record<string, unknown>, known: Set<string>): string[] {
  return Object.keys(value).filter((key) => !known.has(key));
}

/** The `{name}` parameters of a call template. */
function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z][A-Za-z0-9]*)\}/g)].map((match) => match[1]!);
}

/**
 * A route's declared `rateLimit`, checked: a fixed window (`max` per `windowMs`) or sliding ones
 * (`windows`), its reason and its path-parameter scope (a parameter of the call's template).
 * @param callTemplate  The call's path template (contracts `DEFAULT_CALL_URLS`).
 * @param fail  Makes the error that names the service and route.
 */
export function parseRateLimitDeclaration(rateLimit: unknown, callTemplate: string, fail: (problem: string) => Error): EdgeRateLimitDeclaration {
  let declaration: EdgeRateLimitDeclaration;
  if (!isRecord(rateLimit)) throw fail('rateLimit is not an object');
  const extraLimit = unknownKeys(rateLimit, RATE_LIMIT_KEYS);
  if (extraLimit.length > 0) throw fail(`rateLimit has unknown keys ${extraLimit.join(', ')}`);
  const isWindow = (window: Record<string, unknown>): window is Record<string, unknown> & RateWindow =>
    isPositiveInteger(window.max, 1_000_000) && isPositiveInteger(window.windowMs, WEEK_MS) && window.windowMs >= 1000;
  if (rateLimit.windows !== undefined) {
    const windows = rateLimit.windows;
    if (rateLimit.max !== undefined || rateLimit.windowMs !== undefined) throw fail('rateLimit has either max and windowMs (a fixed window) or windows (sliding ones), not both');
    if (!Array.isArray(windows) || windows.length === 0 || windows.length > 4 || !windows.every((window) => isRecord(window) && Object.keys(window).length === 2 && isWindow(window))) {
      throw fail('rateLimit.windows must be 1 to 4 sliding windows { max (a positive integer), windowMs (1000 to a week) }');
    }
    declaration = { windows: (windows as RateWindow[]).map(({ max, windowMs }) => ({ max, windowMs })) };
  } else {
    if (!isPositiveInteger(rateLimit.max, 1_000_000)) throw fail('rateLimit.max must be a positive integer');
    if (!isPositiveInteger(rateLimit.windowMs, WEEK_MS) || rateLimit.windowMs < 1000) throw fail('rateLimit.windowMs must be an integer from 1000 (1 s) to a week');
    declaration = { max: rateLimit.max, windowMs: rateLimit.windowMs };
  }
  if (typeof rateLimit.why === 'string') declaration.why = rateLimit.why;
  if (rateLimit.scope !== undefined) {
    const scope = rateLimit.scope;
    if (!isRecord(scope) || unknownKeys(scope, SCOPE_KEYS).length > 0) throw fail('rateLimit.scope must be { pathParameter, maxLength }');
    if (typeof scope.pathParameter !== 'string' || !pathParameters(callTemplate).includes(scope.pathParameter)) {
      throw fail(`rateLimit.scope.pathParameter must be a parameter of ${callTemplate}`);
    }
    if (!isPositiveInteger(scope.maxLength, 1000)) throw fail('rateLimit.scope.maxLength must be an integer from 1 to 1000');
    declaration.scope = { pathParameter: scope.pathParameter, maxLength: scope.maxLength };
  }
  return declaration;
}
