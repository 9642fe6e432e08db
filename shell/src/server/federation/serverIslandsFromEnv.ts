import { readEnvInteger } from '@khs/env-integer';
import type { RemoteDefinition, ServerIslandStage } from 'contracts';
import { createFederationRuntime } from './createFederationRuntime.js';
import { FailureLog } from './failureLog.js';
import { ServerFederation } from './serverFederation.js';
import { DEFAULT_HEAD_BUDGET_MS, ServerIslands } from './serverIslands.js';
import { warmUpRemotes } from './warmUp.js';

/** Settings of server-rendered islands (environment variables, see README "Configuration"). */
export interface ServerIslandSettings {
  /** `SERVER_ISLANDS`: `off` renders placeholders only (every island mounts in the browser). Default on. */
  enabled: boolean;
  /** `ISLAND_RENDER_BUDGET_MS`, default 1000: load plus render of one island. */
  budgetMs: number;
  /** `REMOTE_SERVER_TIMEOUT_MS`, default 1000: one fetch of a manifest, server entry or chunk. */
  hopTimeoutMs: number;
  /** `REMOTE_REVALIDATE_MS`, default 2000: how often the remotes' manifests are checked for a new build. */
  revalidateMs: number;
  /** `REMOTE_FAILURE_LOG_INTERVAL_MS`, default 60000: one failure line per remote per interval. */
  failureLogIntervalMs: number;
  /** `PAGE_HEAD_BUDGET_MS`, default 20: how long a page's headers wait for its islands before the page streams. */
  headBudgetMs: number;
  /** `ISLAND_SERVER_TIMING=on`: island render times in a `Server-Timing` header. Default off (it shows internals). */
  serverTiming: boolean;
  /** `LOG_LEVEL=debug` (or `trace`): each failure line is followed by the error's stack. Default off: one line, no stack. */
  failureStacks: boolean;
}

const MILLISECONDS = { unit: 'milliseconds' } as const;

export function readServerIslandSettings(env: NodeJS.ProcessEnv = process.env): ServerIslandSettings {
  return {
    enabled: env.SERVER_ISLANDS !== 'off',
    budgetMs: readEnvInteger(env, 'ISLAND_RENDER_BUDGET_MS', MILLISECONDS) ?? 1000,
    hopTimeoutMs: readEnvInteger(env, 'REMOTE_SERVER_TIMEOUT_MS', MILLISECONDS) ?? 1000,
    revalidateMs: readEnvInteger(env, 'REMOTE_REVALIDATE_MS', MILLISECONDS) ?? 2000,
    failureLogIntervalMs: readEnvInteger(env, 'REMOTE_FAILURE_LOG_INTERVAL_MS', MILLISECONDS) ?? 60_000,
    headBudgetMs: readEnvInteger(env, 'PAGE_HEAD_BUDGET_MS', { ...MILLISECONDS, min: 0 }) ?? DEFAULT_HEAD_BUDGET_MS,
    serverTiming: env.ISLAND_SERVER_TIMING === 'on',
    failureStacks: env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace',
  };
}

/**
 * The process's server islands from the configured manifest URLs; undefined when turned off.
 * `onFailure` hears of every server-side failure of a remote (the health view counts them).
 */
export function createServerIslands(
  remotes: RemoteDefinition[],
  settings: ServerIslandSettings,
  onFailure?: (remote: string, stage: ServerIslandStage, error: unknown) => void,
  onPageRendered?: (remotes: ReadonlySet<string>, federation: ServerFederation, versions: ReadonlyMap<string, string | null> | undefined) => void,
): ServerIslands | undefined {
  if (!settings.enabled) return undefined;
  const failures = new FailureLog({ intervalMs: settings.failureLogIntervalMs, stacks: settings.failureStacks, ...(onFailure ? { onFailure } : {}) });
  const federation = new ServerFederation({
    remotes,
    runtime: createFederationRuntime({ hopTimeoutMs: settings.hopTimeoutMs }),
    hopTimeoutMs: settings.hopTimeoutMs,
    disposeDelayMs: Math.max(10_000, settings.budgetMs * 2),
  });
  const report = (remote: string, error: unknown) => failures.report(remote, (error as { stage?: ServerIslandStage }).stage ?? 'manifest', error);
  // A poll that fails while a loaded build renders every page is no island failure: not counted
  // (under load the 1 s hop timed out, and the canary rule held it against the stable build).
  federation.startRevalidation(settings.revalidateMs, report, (remote, error, loadedVersion) => failures.pollFailed(remote, error, loadedVersion));
  void warmUpRemotes(federation, report, settings.revalidateMs);
  return new ServerIslands({
    federation,
    budgetMs: settings.budgetMs,
    failures,
    serverTiming: settings.serverTiming,
    headBudgetMs: settings.headBudgetMs,
    ...(onPageRendered ? { onPageRendered: (rendered: ReadonlySet<string>, versions?: ReadonlyMap<string, string | null>) => onPageRendered(rendered, federation, versions) } : {}),
  });
}
