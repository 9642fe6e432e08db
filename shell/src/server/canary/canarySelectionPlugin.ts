import { createHash, randomBytes } from 'node:crypto';
import type { SelectionContext, VersionChoice, VersionSelectionPlugin } from '../federation/versionSelection.js';
import type { Rollout } from './rollout.js';

/** The first-party visitor cookie a canary assigns by (set only while a canary runs). */
export const VISITOR_COOKIE = 'khs_visitor';
/** A year: a returning visitor keeps their side for as long as a canary can reasonably run. */
export const VISITOR_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** 128 random bits, base64url: what a visitor id looks like (anything else is replaced). */
const VISITOR_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * Where a visitor falls for one canary: a stable hash of (visitor id, remote, canary version) to
 * [0, 1). The same visitor keeps their side for that canary on every shell instance; a new canary
 * version draws anew, so the same visitors are not always the ones who try new builds.
 */
export function canaryPosition(visitorId: string, remote: string, canaryVersion: string): number {
  const digest = createHash('sha256').update(`${visitorId}\n${remote}\n${canaryVersion}`).digest();
  // 48 bits: an exact integer in a double, far finer than any share.
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** A fresh visitor id. */
export function newVisitorId(): string {
  return randomBytes(16).toString('base64url');
}

export interface CanarySelectionOptions {
  /** The remote's split from its origin, as last polled; null/undefined without one. */
  rolloutOf(remote: string): Rollout | null | undefined;
  /**
   * Whether the shells' canary rule ended this canary (the shared store's record): then every
   * visitor gets the stable version, whatever the origin's file still says.
   */
  hasEnded(remote: string, canaryVersion: string): boolean;
  /** Default {@link newVisitorId}. */
  newId?: () => string;
}

/**
 * The canary link of the version selection chain: while a remote's origin names a canary (and the
 * rule has not ended it), a visitor whose {@link canaryPosition} is below the share gets the canary
 * build, everyone else the stable one; both sides are `cacheable: false` (the page depends on the
 * visitor: `Cache-Control: private`). A visitor without a valid id gets one in a first-party
 * cookie (HttpOnly, SameSite=Lax, a year), set only while a canary runs and only once per
 * request. With no canary, or one that ended, the choice is left as it was (the live build).
 */
export function canarySelectionPlugin(options: CanarySelectionOptions): VersionSelectionPlugin {
  const newId = options.newId ?? newVisitorId;
  // One id per request, however many remotes the page has (the cookie is set once).
  const assigned = new WeakMap<SelectionContext, string>();
  const visitorOf = (context: SelectionContext): string => {
    const sent = context.cookies[VISITOR_COOKIE];
    if (sent && VISITOR_ID.test(sent)) return sent;
    let id = assigned.get(context);
    if (!id) {
      id = newId();
      assigned.set(context, id);
      context.setCookie(VISITOR_COOKIE, id, { maxAge: VISITOR_COOKIE_MAX_AGE_SECONDS, path: '/', httpOnly: true, sameSite: 'lax' });
    }
    return id;
  };
  return {
    name: 'khs-canary',
    select(context, remote, current): VersionChoice {
      const rollout = options.rolloutOf(remote);
      const canary = rollout?.canary;
      if (!rollout || !canary || canary.share <= 0 || options.hasEnded(remote, canary.version)) return current;
      const onCanary = canaryPosition(visitorOf(context), remote, canary.version) < canary.share;
      return onCanary ? { version: canary.version, reason: 'canary', cacheable: false } : { version: rollout.stable, reason: 'stable', cacheable: false };
    },
  };
}
