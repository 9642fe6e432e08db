// The shell's canary, put together: the origins' splits (polled), the shared record of ends, the
// monitor running the rule, and the selection plugin for the version chain.
import { readEnvInteger } from '@khs/env-integer';
import type { RemoteDefinition } from 'contracts';
import type { CanaryFacts } from './canaryFacts.js';
import type { IslandFailureStore } from '../islandFailures/islandFailureCounts.js';
import type { VersionSelectionPlugin } from '../federation/versionSelection.js';
import type { CanaryEndStore } from './canaryEndStore.js';
import { CanaryMonitor } from './canaryMonitor.js';
import type { CanaryRuleSettings } from './canaryRule.js';
import { canarySelectionPlugin } from './canarySelectionPlugin.js';
import { RolloutPoller } from './rolloutPoller.js';

/**
 * Overrides of the rule's minimums from the environment (`CANARY_MIN_VIEWS`, `CANARY_MIN_FAILURES`);
 * unset keeps `DEFAULT_CANARY_RULE`. Margin and confidence are not configurable on purpose.
 */
export function readCanaryRuleSettings(env: NodeJS.ProcessEnv = process.env): Partial<CanaryRuleSettings> {
  const minCanaryViews = readEnvInteger(env, 'CANARY_MIN_VIEWS', { unit: 'views' });
  const minCanaryFailures = readEnvInteger(env, 'CANARY_MIN_FAILURES', { unit: 'failures' });
  return { ...(minCanaryViews !== undefined ? { minCanaryViews } : {}), ...(minCanaryFailures !== undefined ? { minCanaryFailures } : {}) };
}

export interface ShellCanary {
  /** The canary link of the version selection chain. */
  plugin: VersionSelectionPlugin;
  monitor: CanaryMonitor;
  poller: RolloutPoller;
  /** What the operators' view shows of a remote's canary. */
  facts(remote: string): CanaryFacts;
  /** Reads the splits once, then polls them and runs the monitor. */
  start(): Promise<void>;
  stop(): void;
}

export interface ShellCanaryOptions {
  remotes: readonly RemoteDefinition[];
  counts: IslandFailureStore;
  ends: CanaryEndStore;
  rule?: Partial<CanaryRuleSettings>;
  /** How often the origins' rollout files are read, ms. Default 2000. */
  pollIntervalMs?: number;
  log?: (line: string) => void;
}

/** The canary of one shell process (see README "Canary"). */
export function createShellCanary(options: ShellCanaryOptions): ShellCanary {
  const poller = new RolloutPoller({ remotes: options.remotes, ...(options.pollIntervalMs ? { intervalMs: options.pollIntervalMs } : {}) });
  const rolloutOf = (remote: string) => poller.rolloutOf(remote);
  const monitor = new CanaryMonitor({
    remotes: options.remotes.map((remote) => remote.name),
    rolloutOf,
    counts: options.counts,
    ends: options.ends,
    ...(options.rule ? { rule: options.rule } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    plugin: canarySelectionPlugin({ rolloutOf, hasEnded: (remote, version) => options.ends.hasEnded(remote, version) }),
    monitor,
    poller,
    facts(remote) {
      const rollout = rolloutOf(remote);
      const verdict = monitor.verdicts.get(remote);
      return {
        rollout,
        end: rollout?.canary ? options.ends.endOf(remote, rollout.canary.version) : undefined,
        verdict: verdict && verdict.version === rollout?.canary?.version ? verdict.reason : undefined,
      };
    },
    async start() {
      await poller.start();
      monitor.start();
    },
    stop() {
      poller.stop();
      monitor.stop();
    },
  };
}
