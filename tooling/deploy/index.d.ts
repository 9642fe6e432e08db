/** Where `npm start` serves each remote from, and deploy/rollback go by default (`.origins/`). */
export const LOCAL_ORIGINS_DIR: string;
/** The local origin folder of `remote`: `.origins/<remote>`. */
export function localOrigin(remote: string): string;
export const MANIFEST_FILE: 'mf-manifest.json';
export const DEPLOYMENTS_FILE: 'deployments.json';
export const VERSIONS_DIR: 'versions';

export type DeployErrorCode =
  | 'not-built'
  | 'no-version'
  | 'bad-version'
  | 'version-conflict'
  | 'unknown-version'
  | 'nothing-to-roll-back'
  | 'locked'
  | 'not-rebasable';

export class DeployError extends Error {
  readonly code: DeployErrorCode;
}

/** One switch of the live version. */
export interface DeploymentEntry {
  action: 'deploy' | 'rollback';
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
  action?: 'deploy' | 'rollback';
  now?: () => Date;
}): Promise<{ version: string; previous: string | null; changed: boolean }>;
export function deploy(options: {
  from: string;
  target: string;
  now?: () => Date;
}): Promise<{ version: string; previous: string | null; changed: boolean; alreadyPublished: boolean }>;
export function rollback(options: { target: string; now?: () => Date }): Promise<{ version: string; previous: string }>;
