import type { PageBus } from './bus.js';
import type { PageConfig } from './config.js';
import type { SearchHit } from './entities.js';
import type { ConsentState } from './events.js';

/** What the shell hands every island it mounts. */
export interface IslandContext {
  /** The page's one bus. */
  bus: PageBus;
  /** The page configuration the server embedded. */
  config: PageConfig;
  /** Current consent (changes arrive as `consent-changed` on the bus). */
  getConsent(): ConsentState;
  /**
   * Present when the element holds the HTML this remote's server build rendered for the same
   * props: the mount must hydrate it (React `hydrateRoot`) instead of replacing it, reusing
   * `state` (what the server render returned) so nothing is fetched twice. Absent when the
   * server render failed and the element holds the shell's small placeholder.
   */
  hydration?: IslandHydration;
}

/** What a server-rendered island hands its browser mount. */
export interface IslandHydration {
  /** The `state` the server render returned (JSON), or undefined. */
  state: unknown;
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

/**
 * Version of the island interface (browser mount + server render). A remote's server build
 * exports it as `islandApiVersion`; the shell renders only modules of a version it knows.
 * 1: `mount(element, props, context)` in the browser.
 * 2: adds the server half: `render(props, context) => Promise<{ html, state? }>`, `dispose()`,
 *    and `context.hydration` in the browser.
 */
export const ISLAND_API_VERSION = 2;

/** What the shell's server hands every island it renders. */
export interface IslandServerContext {
  /** The page configuration the page will embed (the same object the browser gets). */
  config: PageConfig;
  /** The page's address: path and query, e.g. `/search?q=leadership&page=2`. */
  url: string;
  /** Aborted when the island's render budget is spent; stop I/O then. */
  signal: AbortSignal;
  /**
   * The site's content as the shell's server holds it (one store for the whole process), for what
   * an island needs beyond its props (`IslandServerModule.serverProps`). Absent on pages that show
   * no content. Since 1.8.0.
   */
  content?: IslandContentReader;
}

/** Read access to the site's content for server islands (since 1.8.0). */
export interface IslandContentReader {
  /**
   * The article with this id as the page may show it (a public one; on an editor's signed preview
   * page, a draft or scheduled one too), or undefined. It is `@khs/content`'s `Article` (a `SearchHit` with the page's extras).
   */
  article(id: string): SearchHit | undefined;
  /** How the site serves a content image (content-hashed URL, intrinsic size, `srcset`), or undefined for one it does not know. */
  image(contentUrl: string): ServedImage | undefined;
}

/** A content image as the site serves it. */
export interface ServedImage {
  src: string;
  width: number;
  height: number;
  srcset?: string;
}

/**
 * What an island's `serverProps` hook answers: props for its server render only (merged over the
 * page's props, never written into the page), or `null` when the island has nothing to show
 * for these props (the shell then leaves its element empty and the browser does not load it).
 */
export type IslandServerProps = Record<string, unknown> | null;

/** Result of a server render: the island's inner HTML and JSON state for hydration. */
export interface IslandRenderResult {
  /** Inner HTML of the island element; hydrated by the browser mount. */
  html: string;
  /** JSON-serialisable state handed to the browser mount as `context.hydration.state`. */
  state?: unknown;
}

/** Server render of an island (the server build's counterpart of `IslandMount`). */
export type IslandRender<Props = Record<string, unknown>> = (
  props: Props,
  context: IslandServerContext,
) => Promise<IslandRenderResult>;

/**
 * Shape of an exposed module of a remote's **server** build (same expose names as the browser
 * build). `dispose` releases what a loaded version holds outside itself (sockets, agents, timers);
 * the shell calls it once before it loads a newer version of the remote.
 */
export interface IslandServerModule<Props = Record<string, unknown>> {
  islandApiVersion: number;
  render: IslandRender<Props>;
  dispose?: () => void | Promise<void>;
  /**
   * The render is a pure function of (props, page address, page config) for this long (ms): the
   * shell may reuse a result for the same island, props and address within it. Default: never.
   */
  cacheTtlMs?: number;
  /**
   * Version of the data the render reads besides its props and page (for example what a search
   * index held at its last update), answered from memory. The shell makes it part of every shared
   * page's version (its `ETag`) and of the key of reused renders, so no cache keeps a page from
   * before the data changed. Default: none (the render depends on nothing else).
   */
  dataVersion?: () => string | undefined;
  /**
   * What the island needs beyond the props its page or slot gives it, read by its own slice on
   * the server (from the page's content, `context.content`, its own data or service), before
   * `render`; within the same budget. Default: none (`render` gets the page's props). Since 1.8.0.
   */
  serverProps?: (props: Props, context: IslandServerContext) => IslandServerProps | Promise<IslandServerProps>;
}

/**
 * The `cacheTtlMs` an island whose render is a pure function of (props, page address, page config)
 * declares unless it needs another value (one minute).
 */
export const ISLAND_CACHE_TTL_MS = 60_000;

/**
 * Marks the `<script type="application/json">` right after a server-rendered island element; it
 * holds `{ "state": … }`. An island without it holds a placeholder and is mounted, not hydrated.
 * `{ "state": null, "empty": true }` (since 1.8.0): the island had nothing to show here (its
 * `serverProps` answered `null`); the browser leaves it alone (`data-island-state="empty"`).
 */
export const ISLAND_SERVER_STATE_ATTRIBUTE = 'data-island-ssr';

/**
 * DOM event (bubbling, no detail needed) an island's mount dispatches on its element when its
 * server HTML did not match the browser render (React's recoverable hydration error). The shell's
 * runtime, which knows the remote and build of the element, reports it as `KHS-ISLAND-010`; the
 * remote needs no reporting channel of its own.
 */
export const ISLAND_HYDRATION_MISMATCH_EVENT = 'khs:island-hydration-mismatch';

/** Attribute names of island markup. */
export const ISLAND_ATTRIBUTE = 'data-island';
export const ISLAND_PROPS_ATTRIBUTE = 'data-props';
/** Set by the shell once an island mounted, or failed (its fallback then stays), or was empty (nothing to show, not loaded). */
export const ISLAND_STATE_ATTRIBUTE = 'data-island-state';

/**
 * When the browser hydrates (or mounts) an island, declared by the page on its element
 * (`data-island-hydrate`); absent means `immediate`:
 * - `immediate`: as soon as the runtime starts (above-the-fold controls);
 * - `idle`: when the browser is idle (page-wide enhancements);
 * - `visible`: when the island comes near the viewport (below-the-fold content);
 * - `interaction`: on the first pointer, touch or focus on the island.
 * Until then the island keeps its server HTML, which is what hydration reuses.
 */
export const ISLAND_HYDRATE_ATTRIBUTE = 'data-island-hydrate';
export const ISLAND_HYDRATE_TRIGGERS = ['immediate', 'idle', 'visible', 'interaction'] as const;
export type IslandHydrateTrigger = (typeof ISLAND_HYDRATE_TRIGGERS)[number];

/** The trigger an attribute value names; `immediate` for none or an unknown one. */
export function parseHydrateTrigger(value: string | null | undefined): IslandHydrateTrigger {
  return (ISLAND_HYDRATE_TRIGGERS as readonly string[]).includes(value ?? '') ? (value as IslandHydrateTrigger) : 'immediate';
}

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
