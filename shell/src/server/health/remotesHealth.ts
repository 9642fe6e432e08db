import type { RemoteDefinition } from 'contracts';
import type { RemotePollState } from '../federation/serverFederation.js';
import type { IslandFailureStore, RemoteFailureCounts } from '../islandFailures/islandFailureCounts.js';
import { trafficOf } from '../canary/canaryMonitor.js';
import type { CanaryFacts } from '../canary/canaryFacts.js';

export type { CanaryFacts };

/** One build's page views and failures (browser + server) in the window, and their ratio. */
export interface BuildTraffic {
  version: string;
  views: number;
  failures: number;
  /** Failures per view (at most one per view), `null` without views. */
  failureRate: number | null;
}

/** A remote's canary in `/health/remotes`: the origin's split, each side's traffic, and how it ended. */
export interface RemoteCanaryHealth {
  share: number;
  startedAt: string | null;
  /** `running`: visitors are assigned; `ended`: everyone gets the stable build. */
  state: 'running' | 'ended';
  stable: BuildTraffic;
  canary: BuildTraffic;
  /** The rule's last verdict on a running canary (its reason text), `null` before the first run. */
  verdict: string | null;
  /** How it ended: by the shells' rule (`rolled-back`), or at the origin (`promoted`, `aborted`). */
  ended: null | { version: string; outcome: 'promoted' | 'aborted' | 'rolled-back'; reason: string; at: string };
}



/** One remote in `/health/remotes`. Times are ISO strings; `null` where the shell does not know. */
export interface RemoteHealth {
  name: string;
  manifestUrl: string;
  /** The last manifest poll succeeded; `null` before the first poll (or with server islands off). */
  reachable: boolean | null;
  lastPollAt: string | null;
  /** Why the last poll failed. */
  lastPollError: string | null;
  /** `metaData.buildVersion` of the manifest the shell's server renders with. */
  buildVersion: string | null;
  /** `metaData.contractsVersion` of that manifest. */
  contractsVersion: string | null;
  /** When the origin was switched to this build (`metaData.deployedAt`, written by tooling/deploy). */
  deployedAt: string | null;
  /** When this shell first saw that manifest (its start, or its poll after the switch). */
  changedAt: string | null;
  /** How many builds replaced the first one since the shell started. */
  buildChanges: number;
  /** Failures within the window, per source (browser beacons, server renders) and code. */
  failures: RemoteFailureCounts;
  /** The remote's canary, running or last ended; `null` when its origin never ran one. */
  canary: RemoteCanaryHealth | null;
}

/** The JSON of `/health/remotes`. */
export interface RemotesHealth {
  generatedAt: string;
  /** Whether the shell renders islands on the server (its manifest polls feed this view). */
  serverIslands: boolean;
  /** Length of the failure counts' sliding window, seconds. */
  failureWindowSeconds: number;
  remotes: RemoteHealth[];
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** What the health view shows, from the configuration, the loader's poll state and the counts (of every instance when the store is shared). */
export async function remotesHealth(
  remotes: RemoteDefinition[],
  pollStates: RemotePollState[] | undefined,
  counts: IslandFailureStore,
  now: number,
  canaryOf: (remote: string) => CanaryFacts | undefined = () => undefined,
): Promise<RemotesHealth> {
  const failures = await counts.recentAll(remotes.map((remote) => remote.name));
  const states = new Map((pollStates ?? []).map((state) => [state.remote, state]));
  return {
    generatedAt: new Date(now).toISOString(),
    serverIslands: pollStates !== undefined,
    failureWindowSeconds: Math.round(counts.windowMs / 1000),
    remotes: remotes.map((remote) => {
      const state = states.get(remote.name);
      return {
        name: remote.name,
        manifestUrl: state?.manifestUrl ?? remote.entry,
        reachable: state?.lastPoll ? state.lastPoll.ok : null,
        lastPollAt: iso(state?.lastPoll?.at),
        lastPollError: state?.lastPoll && !state.lastPoll.ok ? (state.lastPoll.error ?? 'failed') : null,
        buildVersion: state?.buildVersion ?? null,
        contractsVersion: state?.contractsVersion ?? null,
        deployedAt: state?.deployedAt ?? null,
        changedAt: iso(state?.changedAt),
        buildChanges: state?.generation ?? 0,
        failures: failures[remote.name]!,
        canary: canaryHealth(canaryOf(remote.name), failures[remote.name]),
      };
    }),
  };
}

function buildTraffic(counts: RemoteFailureCounts | undefined, version: string): BuildTraffic {
  const { views, failures } = trafficOf(counts, version);
  return { version, views, failures, failureRate: views > 0 ? Math.min(failures, views) / views : null };
}

/** The canary part of one remote's health: the running split, or how the last one ended. */
export function canaryHealth(facts: CanaryFacts | undefined, counts: RemoteFailureCounts | undefined): RemoteCanaryHealth | null {
  const rollout = facts?.rollout;
  if (!rollout) return null;
  if (rollout.canary) {
    const end = facts.end;
    return {
      share: rollout.canary.share,
      startedAt: rollout.canary.startedAt,
      state: end ? 'ended' : 'running',
      stable: buildTraffic(counts, rollout.stable),
      canary: buildTraffic(counts, rollout.canary.version),
      verdict: facts.verdict ?? null,
      ended: end ? { version: end.version, outcome: 'rolled-back', reason: end.reason, at: end.at } : null,
    };
  }
  if (!rollout.ended) return null;
  return {
    share: 0,
    startedAt: null,
    state: 'ended',
    stable: buildTraffic(counts, rollout.stable),
    canary: buildTraffic(counts, rollout.ended.version),
    verdict: null,
    ended: rollout.ended,
  };
}
