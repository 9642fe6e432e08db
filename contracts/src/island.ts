import type { PageBus } from './bus.js';
import type { PageConfig } from './config.js';
import type { ConsentState } from './events.js';

/** What the shell hands every island it mounts. */
export interface IslandContext {
  /** The page's one bus. */
  bus: PageBus;
  /** The page configuration the server embedded. */
  config: PageConfig;
  /** Current consent (changes arrive as `consent-changed` on the bus). */
  getConsent(): ConsentState;
}

/** Undo everything a mount did (listeners, roots, timers). */
export type Unmount = () => void;

/**
 * The default export of every exposed module: mount into an element that carries the
 * island's server-rendered fallback; return the unmount function.
 * Server markup: `<div data-island="mf-watchlist/WatchlistButton" data-props='{"id":"42"}'>`.
 */
export type IslandMount<Props = Record<string, unknown>> = (
  element: HTMLElement,
  props: Props,
  context: IslandContext,
) => Unmount | Promise<Unmount>;

/** Shape of an exposed island module. */
export interface IslandModule<Props = Record<string, unknown>> {
  default: IslandMount<Props>;
}

/** Attribute names of island markup. */
export const ISLAND_ATTRIBUTE = 'data-island';
export const ISLAND_PROPS_ATTRIBUTE = 'data-props';
/** Set by the shell once an island mounted, or failed (its fallback then stays). */
export const ISLAND_STATE_ATTRIBUTE = 'data-island-state';

/** Id of the `<script type="application/json">` element holding the page config. */
export const PAGE_CONFIG_ELEMENT_ID = 'khs-page-config';

/** Splits `"mf-watchlist/WatchlistButton"` into remote and module; null when malformed. */
export function parseIslandName(name: string): { remote: string; module: string } | null {
  const match = /^([a-z0-9][a-z0-9_-]*)\/([A-Za-z0-9_-]+)$/.exec(name.trim());
  return match ? { remote: match[1]!, module: match[2]! } : null;
}

/**
 * Module Federation container name of a remote: island and config names use dashes
 * (`mf-watchlist`), the container global uses underscores (`mf_watchlist`).
 */
export function containerName(remoteName: string): string {
  return remoteName.replace(/-/g, '_');
}
