import type { IslandHydrateTrigger } from './island.js';

/**
 * A page's main content rendered by a team service, for the shell to wrap in the site layout
 * (header, footer, the header's islands). The service owns the content and its texts; the shell
 * owns the document. Answered as JSON with `PAGE_FRAGMENT_MEDIA_TYPE` and the page's HTTP status.
 */
export interface PageFragment {
  /** The document title (the shell adds the site name). */
  title: string;
  /** Class of the page's `<body>`/main, e.g. `page-contact`. */
  pageClass: string;
  /** The main content's HTML. Each island's element holds `pageFragmentIslandMarker(index)` where its content goes. */
  html: string;
  /** The islands in `html`, in marker order, for the shell's island renderer. */
  islands: PageFragmentIsland[];
  /**
   * The content's own CSS, which the shell puts in the page's head, so a team changes its page's
   * look without a shell release. Scoped by the service to its own classes; it may not contain
   * `</` (it is written into a `<style>` element). Default none.
   */
  styles?: string;
}

/** An island inside a page fragment: what the shell's `Island` would have been given. */
export interface PageFragmentIsland {
  /** `remote/Module`, e.g. `mf-widgets/FileField`. */
  name: string;
  /** JSON props, written into the page for the browser mount (also in the element's attribute). */
  props: Record<string, unknown>;
  /** Props for the server render only (never written into the page). */
  serverProps?: Record<string, unknown>;
  /** The element is a `<span>` (an island inside a sentence). */
  inline?: boolean;
  hydrate?: IslandHydrateTrigger;
  /** HTML shown when the remote's server render fails (or server islands are off). */
  placeholderHtml: string;
}

/** Content type of a `PageFragment` answer. */
export const PAGE_FRAGMENT_MEDIA_TYPE = 'application/vnd.khs.page-fragment+json';

/** The comment standing for an island's content in `PageFragment.html`. */
export function pageFragmentIslandMarker(index: number): string {
  return `<!--khs-fragment-island:${index}-->`;
}

/** Matches every island marker of a fragment; group 1 is the index. */
export const PAGE_FRAGMENT_ISLAND_MARKER_PATTERN = /<!--khs-fragment-island:(\d+)-->/g;

/** Whether a parsed JSON body is a `PageFragment` (a service answered what the shell can compose). */
export function isPageFragment(value: unknown): value is PageFragment {
  if (typeof value !== 'object' || value === null) return false;
  const fragment = value as Partial<PageFragment>;
  return (
    typeof fragment.title === 'string' &&
    typeof fragment.pageClass === 'string' &&
    typeof fragment.html === 'string' &&
    (fragment.styles === undefined || (typeof fragment.styles === 'string' && !fragment.styles.includes('</'))) &&
    Array.isArray(fragment.islands) &&
    fragment.islands.every(
      (island) =>
        typeof island === 'object' && island !== null && typeof island.name === 'string' && typeof island.placeholderHtml === 'string' && typeof island.props === 'object' && island.props !== null,
    )
  );
}
