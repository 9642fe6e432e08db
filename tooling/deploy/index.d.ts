/** Where `npm start` serves each remote from, and deploy/rollback go by default (`.origins/`). */
export const LOCAL_ORIGINS_DIR: string;
/** The local origin folder of `remote`: `.origins/<remote>`. */
export function localOrigin(remote: string): string;
export const MANIFEST_FILE: 'mf-manifest.json';
export const DEPLOYMENTS_FILE: 'deployments.json';
export const VERSIONS_DIR: 'versions';
export const ROLLOUT_FILE: 'rollout.json';

export type DeployErrorCode =
  | 'not-built'
  | 'no-version'
  | 'bad-version'
  | 'version-conflict'
  | 'unknown-version'
  | 'nothing-to-roll-back'
  | 'locked'
  | 'not-rebasable'
  | 'bad-share'
  | 'no-stable'
  | 'canary-active'
  | 'no-canary';

export class DeployError extends Error {
  readonly code: DeployErrorCode;
}

/** One switch of the live version. */
export interface DeploymentEntry {
  /** `canary` started one (live unchanged), `promote` made it live, `abort` ended it (live unchanged). */
  action: 'deploy' | 'rollback' | 'canary' | 'promote' | 'abort';
  /** Share of visitors of a `canary` entry, 0..1. */
  share?: number;
  version: string;
  previous: string | null;
  /** ISO date. */
  at: string;
}

/** `<target>/deployments.json`. */
export interface Deployments {
  current: string | null;
  history: DeploymentEntry[];
}

export function buildVersionOf(dir: string): Promise<string>;
export function rebaseManifest<T extends { metaData: Record<string, unknown> }>(manifest: T, version: string): T;
export function readDeployments(target: string): Promise<Deployments>;
export function liveStack(history: DeploymentEntry[]): string[];
export function publishedVersions(target: string): Promise<string[]>;
export function publish(options: { from: string; target: string }): Promise<{ version: string; dir: string; alreadyPublished: boolean }>;
export function switchTo(options: {
  target: string;
  version: string;
  action?: 'deploy' | 'rollback' | 'promote';
  now?: () => Date;
}): Promise<{ version: string; previous: string | null; changed: boolean }>;
export function deploy(options: {
  from: string;
  target: string;
  now?: () => Date;
}): Promise<{ version: string; previous: string | null; changed: boolean; alreadyPublished: boolean }>;
export function rollback(options: { target: string; now?: () => Date }): Promise<{ version: string; previous: string }>;
/**
 * What `npm start -- --no-build` serves: the version live in `target`, never the build in `from`
 * (deployed only when nothing is live yet). While a canary runs, a `from` of another version is
 * refused (`canary-active`, naming the folder); without one, `skipped` is the version it holds.
 */
export function keepLive(options: {
  from: string;
  target: string;
  now?: () => Date;
}): Promise<{ version: string; changed: boolean; skipped?: string }>;

/** `<target>/rollout.json`: the canary split every shell reads beside the live manifest. */
export interface Rollout {
  /** The version everyone outside the canary gets (the live one). */
  stable: string;
  canary: null | { version: string; /** 0..1 */ share: number; /** ISO date. */ startedAt: string };
  ended: null | { version: string; outcome: 'promoted' | 'aborted' | 'rolled-back'; reason: string; /** ISO date. */ at: string };
}

export function readRollout(target: string): Promise<Rollout | null>;
export function startCanary(options: {
  from: string;
  target: string;
  /** Above 0, below 100. */
  percent: number;
  now?: () => Date;
}): Promise<{ version: string; stable: string; share: number; alreadyPublished: boolean }>;
export function promoteCanary(options: { target: string; now?: () => Date }): Promise<{ version: string; previous: string | null }>;
export function abortCanary(options: {
  target: string;
  /** Default "aborted by an operator". */
  reason?: string;
  /** Default `aborted`. */
  outcome?: 'aborted' | 'rolled-back';
  now?: () => Date;
}): Promise<{ version: string; stable: string }>;
