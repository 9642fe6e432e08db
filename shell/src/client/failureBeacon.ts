import { ISLAND_FAILURE_REPORT_PATH, type IslandFailureReport } from '../shared/islandFailureReport.js';

export interface FailureBeaconOptions {
  /** Reports one page sends at most (a broken remote must not flood the shell). Default 10. */
  maxPerPage?: number;
  /** Sends one JSON body to `path` (tests pass a fake). Default {@link sendJsonBeacon}. */
  send?: (path: string, body: string) => void;
}

/**
 * Sends `body` as JSON without delaying the page or its unload: `navigator.sendBeacon` with a
 * JSON Blob, or, where that is refused (not supported, or the browser's queue is full),
 * `fetch` with `keepalive`. Failures are ignored: reporting must never break a page.
 */
export function sendJsonBeacon(path: string, body: string): void {
  try {
    if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
      if (navigator.sendBeacon(path, new Blob([body], { type: 'application/json' }))) return;
    }
  } catch {
    // Some browsers refuse a non-form Blob type: fall through to fetch.
  }
  void fetch(path, { method: 'POST', body, headers: { 'content-type': 'application/json' }, keepalive: true, credentials: 'same-origin' }).catch(() => {});
}

/**
 * The page's island failure beacon: one POST per failure to `ISLAND_FAILURE_REPORT_PATH`, at most
 * one per remote and code per page (twelve broken watchlist buttons are one failure), and at most
 * `maxPerPage` in all. Returns whether the report was sent.
 */
export function createFailureBeacon({ maxPerPage = 10, send = sendJsonBeacon }: FailureBeaconOptions = {}): (report: IslandFailureReport) => boolean {
  const sent = new Set<string>();
  return (report) => {
    const key = `${report.remote}\n${report.code}`;
    if (sent.has(key) || sent.size >= maxPerPage) return false;
    sent.add(key);
    send(ISLAND_FAILURE_REPORT_PATH, JSON.stringify(report));
    return true;
  };
}
