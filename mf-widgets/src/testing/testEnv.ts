import { createPageBus, type PageBus } from 'contracts';
import type { MediaWatch, WidgetEnv, WidgetWindow } from '../enhance/env.js';

/** A media query the test flips by hand. */
export interface FakeMedia extends MediaWatch {
  set(matches: boolean): void;
}

export function fakeMedia(initial = false): FakeMedia {
  let matches = initial;
  const listeners = new Set<(matches: boolean) => void>();
  return {
    matches: () => matches,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(value) {
      matches = value;
      for (const listener of listeners) listener(value);
    },
  };
}

export interface TestEnv extends WidgetEnv {
  bus: PageBus;
  /** Media queries by query text, created on first use. */
  queries: Map<string, FakeMedia>;
  setReducedMotion(value: boolean): void;
}

/** A widget environment over jsdom's window with a fresh bus and hand-driven media queries. */
export function testEnv(): TestEnv {
  let reduced = false;
  const queries = new Map<string, FakeMedia>();
  return {
    window: window as WidgetWindow,
    document,
    bus: createPageBus(),
    queries,
    media(query) {
      let media = queries.get(query);
      if (!media) {
        media = fakeMedia(false);
        queries.set(query, media);
      }
      return media;
    },
    reducedMotion: () => reduced,
    setReducedMotion(value) {
      reduced = value;
    },
  };
}

/** Puts `html` into the body and returns its first element. */
export function render(html: string): HTMLElement {
  document.body.innerHTML = html;
  return document.body.firstElementChild as HTMLElement;
}

/** Dispatches a keydown that bubbles, as a browser does. */
export function press(target: Element, key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}
