import type { IslandFailureStore, RemoteFailureCounts } from '../islandFailures/islandFailureCounts.js';
import type { CanaryEnd, CanaryEndStore } from './canaryEndStore.js';
import { evaluateCanary, type CanaryRuleSettings, type CanaryVerdict, type VersionTraffic } from './canaryRule.js';
import type { Rollout } from './rollout.js';

/** Views and failures (browser + server, by build) of one build in a remote's counts. */
export function trafficOf(counts: RemoteFailureCounts | undefined, version: string): VersionTraffic {
  return {
    views: counts?.views[version] ?? 0,
    failures: (counts?.browserVersions[version] ?? 0) + (counts?.serverVersions[version] ?? 0),
  };
}

export interface CanaryMonitorOptions {
  remotes: readonly string[];
  rolloutOf(remote: string): Rollout | null | undefined;
  counts: IslandFailureStore;
  ends: CanaryEndStore;
  /** Overrides of the rule's defaults (`DEFAULT_CANARY_RULE`). */
  rule?: Partial<CanaryRuleSettings>;
  /** How often the rule runs without reports arriving, ms. Default 5000. */
  intervalMs?: number;
  /** A report schedules a run this much later; more reports meanwhile join it, ms. Default 500. */
  debounceMs?: number;
  now?: () => number;
  /** Where the one line of an end goes. Default `console.log`. */
  log?: (line: string) => void;
}

/**
 * Runs the canary rule over the shared counts of each remote with a running canary, every
 * `intervalMs` and shortly after reports arrive (`notify`, debounced). When the rule says end, the
 * end is recorded in the shared store (every instance stops assigning the canary: the selection
 * plugin asks the store) and the instance that recorded it logs one line. The counts are those of
 * the store's window (15 minutes): the canary's are all since it started; the stable build's are
 * its recent ones.
 */
export class CanaryMonitor {
  private timer: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  /** The last verdict per remote and canary version (the operators' view shows it). */
  readonly verdicts = new Map<string, CanaryVerdict & { version: string }>();

  constructor(private readonly options: CanaryMonitorOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.evaluate(), this.options.intervalMs ?? 5000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.debounce) clearTimeout(this.debounce);
    this.timer = this.debounce = undefined;
  }

  /** A page report arrived: evaluate soon (reports arriving meanwhile join the same run). */
  notify(): void {
    if (this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.evaluate();
    }, this.options.debounceMs ?? 500);
    this.debounce.unref();
  }

  /** One run of the rule for every running canary (runs never overlap); resolves with the ends this run recorded. */
  evaluate(): Promise<CanaryEnd[]> {
    const run = this.running.then(() => this.evaluateNow());
    this.running = run.then(() => undefined, () => undefined);
    return run;
  }

  private async evaluateNow(): Promise<CanaryEnd[]> {
    const running = this.options.remotes.flatMap((remote) => {
      const rollout = this.options.rolloutOf(remote);
      return rollout?.canary && !this.options.ends.hasEnded(remote, rollout.canary.version) ? [{ remote, rollout, canary: rollout.canary }] : [];
    });
    if (running.length === 0) return [];
    const counts = await this.options.counts.recentAll(running.map(({ remote }) => remote));
    const recorded: CanaryEnd[] = [];
    for (const { remote, rollout, canary } of running) {
      const verdict = evaluateCanary({ stable: trafficOf(counts[remote], rollout.stable), canary: trafficOf(counts[remote], canary.version) }, this.options.rule);
      this.verdicts.set(remote, { ...verdict, version: canary.version });
      if (verdict.decision !== 'end') continue;
      const at = new Date((this.options.now ?? Date.now)()).toISOString();
      const { end, recorded: byUs } = await this.options.ends.recordEnd({ remote, version: canary.version, reason: verdict.reason, at });
      if (!byUs) continue;
      recorded.push(end);
      (this.options.log ?? console.log)(`[shell] canary of "${remote}" ${canary.version} ended (rolled back to ${rollout.stable} for every visitor): ${verdict.reason}`);
    }
    return recorded;
  }
}
