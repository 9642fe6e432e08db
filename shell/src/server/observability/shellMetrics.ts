import { boundedLabel, counter, histogram } from '@khs/observability';
import type { IslandOutcome } from '../federation/serverIslands.js';
import type { IslandFailure, IslandFailureStore } from '../islandFailures/islandFailureCounts.js';

/** Island render buckets, seconds: the budget is 1–2 s, most renders take milliseconds. */
const ISLAND_RENDER_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Version label of a build the shell does not know (a remote before its manifest was read). */
export const UNKNOWN_VERSION = 'unknown';

const islandRenderDuration = () =>
  histogram({
    name: 'khs_island_render_duration_seconds',
    help: 'Load plus server render of one island, seconds, by remote, build version and outcome (rendered, reused, placeholder).',
    labelNames: ['remote', 'version', 'outcome'],
    buckets: ISLAND_RENDER_BUCKETS_SECONDS,
  });
const islandServerFailures = () =>
  counter({ name: 'khs_island_server_failures_total', help: 'Islands the server left as placeholders, by remote, build version and stage.', labelNames: ['remote', 'version', 'stage'] });
const islandBudgetOverruns = () =>
  counter({ name: 'khs_island_budget_overruns_total', help: 'Islands that did not render within ISLAND_RENDER_BUDGET_MS, by remote and build version.', labelNames: ['remote', 'version'] });
const browserFailures = () =>
  counter({ name: 'khs_island_browser_failures_total', help: "Island failures browsers reported (page reports), by remote, the build version they ran and code.", labelNames: ['remote', 'version', 'code'] });
const pageViews = () =>
  counter({ name: 'khs_island_page_views_total', help: 'Page views browsers reported per remote and the build version they ran (the denominator of failure rates).', labelNames: ['remote', 'version'] });

/**
 * Records each island's server render: its duration by outcome, and a placeholder by stage (a
 * `timeout` is also a budget overrun). `liveVersion` names the build when the page chose none.
 */
export function islandRenderMetrics(liveVersion: (remote: string) => string | undefined) {
  const duration = islandRenderDuration();
  const failures = islandServerFailures();
  const overruns = islandBudgetOverruns();
  return (remote: string, chosen: string | null | undefined, outcome: IslandOutcome): void => {
    const version = chosen ?? liveVersion(remote) ?? UNKNOWN_VERSION;
    duration.observe({ remote, version, outcome: outcome.ok ? (outcome.reused ? 'reused' : 'rendered') : 'placeholder' }, outcome.ms / 1000);
    if (outcome.ok) return;
    failures.inc({ remote, version, stage: outcome.stage });
    if (outcome.stage === 'timeout') overruns.inc({ remote, version });
  };
}

/**
 * The failure store, counting what browsers report into metrics too: failures by remote, build
 * version and code, and page views by remote and build version. A version is a browser's word:
 * the first 8 per remote are labels, any later one is `other` (a label per forged version would
 * grow without end). Remotes and codes are checked before (configured remotes, published codes).
 */
export function withBrowserReportMetrics(store: IslandFailureStore): IslandFailureStore {
  const failures = browserFailures();
  const views = pageViews();
  const version = boundedLabel(8);
  return {
    get windowMs() {
      return store.windowMs;
    },
    recordFailure(failure: IslandFailure) {
      if (failure.source === 'browser') failures.inc({ remote: failure.remote, version: failure.version ? version(failure.remote, failure.version) : UNKNOWN_VERSION, code: failure.code });
      store.recordFailure(failure);
    },
    recordView(remote: string, buildVersion: string) {
      views.inc({ remote, version: version(remote, buildVersion) });
      store.recordView(remote, buildVersion);
    },
    recentAll: (remotes) => store.recentAll(remotes),
    close: () => store.close(),
  };
}
