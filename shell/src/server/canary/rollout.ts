// The canary split as the origin holds it (`<origin>/rollout.json`, written by tooling/deploy,
// README "Canary"): parsed and checked here, in the one place the shell reads it.
import { isBuildVersion } from '../federation/versionSelection.js';

/** `rollout.json` of one remote's origin. */
export interface Rollout {
  /** The version everyone outside the canary gets (the live one). */
  stable: string;
  canary: null | { version: string; /** 0..1 */ share: number; /** ISO date. */ startedAt: string };
  ended: null | { version: string; outcome: 'promoted' | 'aborted' | 'rolled-back'; reason: string; at: string };
}

const OUTCOMES = new Set(['promoted', 'aborted', 'rolled-back']);

/**
 * A rollout file's JSON, checked (versions that can name a folder, a share in [0, 1], a date), or
 * undefined when it is not one: a broken file must never send visitors to a made-up version.
 */
export function parseRollout(value: unknown): Rollout | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { stable, canary, ended } = value as Record<string, unknown>;
  if (!isBuildVersion(stable)) return undefined;
  let checkedCanary: Rollout['canary'] = null;
  if (canary !== null && canary !== undefined) {
    const { version, share, startedAt } = canary as Record<string, unknown>;
    if (!isBuildVersion(version) || typeof share !== 'number' || !(share >= 0 && share <= 1)) return undefined;
    if (typeof startedAt !== 'string' || Number.isNaN(Date.parse(startedAt))) return undefined;
    checkedCanary = { version, share, startedAt };
  }
  let checkedEnded: Rollout['ended'] = null;
  if (ended !== null && ended !== undefined && typeof ended === 'object') {
    const { version, outcome, reason, at } = ended as Record<string, unknown>;
    if (isBuildVersion(version) && typeof outcome === 'string' && OUTCOMES.has(outcome) && typeof at === 'string') {
      checkedEnded = { version, outcome: outcome as NonNullable<Rollout['ended']>['outcome'], reason: typeof reason === 'string' ? reason : '', at };
    }
  }
  return { stable, canary: checkedCanary, ended: checkedEnded };
}

/** Where a remote's rollout file is: `rollout.json` beside its live manifest. */
export function rolloutUrl(liveManifestUrl: string): string {
  return new URL('rollout.json', liveManifestUrl).href;
}
