import type { PageBus } from 'contracts';

/** A media query the widgets can read and follow. */
export interface MediaWatch {
  matches(): boolean;
  /** Calls `listener` when the query flips; returns the unsubscribe function. */
  subscribe(listener: (matches: boolean) => void): () => void;
}

/** A window with its DOM constructors (`HTMLElement`, `MutationObserver`, …), as in browsers and jsdom. */
export type WidgetWindow = Window & typeof globalThis;

/** What every enhancer receives besides its element. */
export interface WidgetEnv {
  window: WidgetWindow;
  document: Document;
  /** The page bus (`context.bus`). */
  bus: PageBus;
  /** A media query; a query the browser cannot evaluate never matches. */
  media(query: string): MediaWatch;
  /** True while the visitor asks for reduced motion; read at the moment of each animation. */
  reducedMotion(): boolean;
}

const NEVER: MediaWatch = { matches: () => false, subscribe: () => () => {} };

/** A media watch over `window.matchMedia` (absent in some test environments: never matches). */
export function browserMedia(win: Window, query: string): MediaWatch {
  if (typeof win.matchMedia !== 'function') return NEVER;
  const list = win.matchMedia(query);
  return {
    matches: () => list.matches,
    subscribe(listener) {
      const onChange = (event: MediaQueryListEvent) => listener(event.matches);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
  };
}

/** The environment of a real page: `window`, `document`, the page bus and matchMedia. */
export function createBrowserEnv(win: WidgetWindow, bus: PageBus): WidgetEnv {
  const reduced = browserMedia(win, '(prefers-reduced-motion: reduce)');
  return {
    window: win,
    document: win.document,
    bus,
    media: (query) => browserMedia(win, query),
    reducedMotion: () => reduced.matches(),
  };
}
