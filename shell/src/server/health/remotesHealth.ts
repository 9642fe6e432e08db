import type { RemoteDefinition } from 'contracts';
import type { RemotePollState } from '../federation/serverFederation.js';
import type { IslandFailureStore, RemoteFailureCounts } from '../islandFailures/islandFailureCounts.js';

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
      };
    }),
  };
}
