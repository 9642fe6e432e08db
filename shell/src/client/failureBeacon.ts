import { ISLAND_FAILURE_REPORT_PATH, MAX_FAILURES_PER_PAGE_REPORT, type IslandFailureReport, type PageReport } from '../shared/islandFailureReport.js';

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

export interface PageReporterOptions {
  /** Failures one page reports at most (a broken remote must not flood the shell). Default `MAX_FAILURES_PER_PAGE_REPORT` (10). */
  maxFailuresPerPage?: number;
  /**
   * Quiet time after the last build or failure before the batch goes out, ms: a page's islands
   * load and hydrate within about a second, so one beacon usually carries the whole page. Default 1000.
   */
  batchDelayMs?: number;
  /** Sends one JSON body to `path` (tests pass a fake). Default {@link sendJsonBeacon}. */
  send?: (path: string, body: string) => void;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/** The page's one reporter of views and failures (see {@link createPageReporter}). */
export interface PageReporter {
  /** The page runs `remote` at `buildVersion` (its manifest was read): one view of that build. */
  recordBuild(remote: string, buildVersion: string): void;
  /** An island failed; returns whether it will be reported (once per remote and code, up to the cap). */
  reportFailure(report: IslandFailureReport): boolean;
  /** Sends what is pending now (the page is being hidden or left). */
  flush(): void;
}

/**
 * The page's beacon of views and failures, `POST ISLAND_FAILURE_REPORT_PATH` with a
 * {@link PageReport}: each remote's build once per page (a view of that build, the denominator of
 * its failure rate), failures at most once per remote and code (twelve broken buttons of one remote
 * are one failure) and `maxFailuresPerPage` in all, each with the build version of its remote when
 * known. Batched: one beacon after `batchDelayMs` of quiet, and `flush()` on leaving.
 */
export function createPageReporter({
  maxFailuresPerPage = MAX_FAILURES_PER_PAGE_REPORT,
  batchDelayMs = 1000,
  send = sendJsonBeacon,
  setTimer = (callback, ms) => setTimeout(callback, ms),
  clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}: PageReporterOptions = {}): PageReporter {
  const builds = new Map<string, string>();
  const viewed = new Set<string>();
  const failureKeys = new Set<string>();
  let pendingViews: Record<string, string> = {};
  let pendingFailures: IslandFailureReport[] = [];
  let timer: unknown;

  const flush = () => {
    if (timer !== undefined) clearTimer(timer);
    timer = undefined;
    const report: PageReport = {};
    if (Object.keys(pendingViews).length > 0) report.views = pendingViews;
    if (pendingFailures.length > 0) {
      // A failure seen before its remote's manifest was read gets the build learnt since.
      report.failures = pendingFailures.map((failure) => {
        const remoteVersion = failure.remoteVersion ?? builds.get(failure.remote);
        return remoteVersion ? { ...failure, remoteVersion } : failure;
      });
    }
    pendingViews = {};
    pendingFailures = [];
    if (report.views || report.failures) send(ISLAND_FAILURE_REPORT_PATH, JSON.stringify(report));
  };
  const schedule = () => {
    if (timer !== undefined) clearTimer(timer);
    timer = setTimer(flush, batchDelayMs);
  };

  return {
    recordBuild(remote, buildVersion) {
      builds.set(remote, buildVersion);
      if (viewed.has(remote)) return;
      viewed.add(remote);
      pendingViews[remote] = buildVersion;
      schedule();
    },
    reportFailure(report) {
      const key = `${report.remote}\n${report.code}`;
      if (failureKeys.has(key) || failureKeys.size >= maxFailuresPerPage) return false;
      failureKeys.add(key);
      pendingFailures.push(report);
      schedule();
      return true;
    },
    flush,
  };
}
