import type { WidgetEnv } from './env.js';
import { MarkupError } from './markup.js';
import type { Cleanup } from './undo.js';

/** Enhances one widget element; returns the cleanup that removes every listener and change. */
export type Enhancer = (element: HTMLElement, env: WidgetEnv) => Cleanup;

/** A registry entry: which elements a widget takes, and how it enhances them. */
export interface WidgetDefinition {
  /** Short name used in warnings, e.g. `tabs`. */
  name: string;
  /** CSS selector of the widget's root element, e.g. `[data-widget="tabs"]`. */
  selector: string;
  enhance: Enhancer;
}

export interface EnhancerOptions {
  /** Where widgets are looked for and observed; usually `document`. */
  root: Document | Element;
  widgets: readonly WidgetDefinition[];
  env: WidgetEnv;
  /** Where the one warning per skipped widget goes. Default `console`. */
  logger?: Pick<Console, 'warn'>;
}

export interface EnhancerEngine {
  /** Enhances every widget under `node` that is not enhanced yet (the observer calls this too). */
  scan(node: ParentNode): void;
  /** Number of (element, widget) pairs currently enhanced. */
  readonly enhancedCount: number;
  /** Stops observing and runs every cleanup: the page is back to its server markup. */
  stop(): void;
}

/**
 * The enhancer engine: enhances every widget on the page once, watches for widgets added later
 * (search results, dialog content) with a MutationObserver, and isolates failures: a widget
 * that throws is skipped with one console warning and every other widget still works.
 */
export function startEnhancer({ root, widgets, env, logger = console }: EnhancerOptions): EnhancerEngine {
  /** Cleanups per element and widget name: an element enhanced by a widget is never enhanced by it again. */
  const enhanced = new WeakMap<Element, Map<string, Cleanup>>();
  /** Elements a widget failed on; they are not retried (one warning, not one per mutation). */
  const failed = new WeakMap<Element, Set<string>>();
  /** Strong references for unmount and for cleaning up elements that left the page. */
  const live = new Set<Element>();
  let stopped = false;

  const enhanceOne = (element: HTMLElement, widget: WidgetDefinition) => {
    const done = enhanced.get(element);
    if (done?.has(widget.name) || failed.get(element)?.has(widget.name)) return;
    try {
      const cleanup = widget.enhance(element, env);
      if (done) done.set(widget.name, cleanup);
      else enhanced.set(element, new Map([[widget.name, cleanup]]));
      live.add(element);
    } catch (error) {
      const names = failed.get(element) ?? new Set<string>();
      names.add(widget.name);
      failed.set(element, names);
      if (error instanceof MarkupError) {
        logger.warn(`[mf-widgets] ${widget.name} skipped: ${error.message}`, element);
      } else {
        logger.warn(`[mf-widgets] ${widget.name} failed and was skipped; other widgets still work`, element, error);
      }
    }
  };

  /** Every widget selector at once: additions without any widget (most re-renders) cost one query. */
  const anyWidget = widgets.map((widget) => widget.selector).join(',');

  const scan = (node: ParentNode) => {
    if (stopped) return;
    const isElement = node instanceof env.window.Element;
    if (anyWidget === '' || (!(isElement && (node as Element).matches(anyWidget)) && !node.querySelector(anyWidget))) return;
    for (const widget of widgets) {
      if (node instanceof env.window.HTMLElement && node.matches(widget.selector)) enhanceOne(node, widget);
      for (const element of node.querySelectorAll<HTMLElement>(widget.selector)) enhanceOne(element, widget);
    }
  };

  const release = (element: Element) => {
    for (const cleanup of enhanced.get(element)?.values() ?? []) cleanup();
    enhanced.delete(element);
    failed.delete(element);
    live.delete(element);
  };

  const observer = new env.window.MutationObserver((records) => {
    let removed = false;
    for (const record of records) {
      if (record.removedNodes.length > 0) removed = true;
      for (const node of record.addedNodes) {
        if (node.nodeType === 1 && node.isConnected) scan(node as Element);
      }
    }
    // Widgets that left the page give back their window/document listeners at once.
    if (removed) for (const element of [...live]) if (!element.isConnected) release(element);
  });

  scan(root);
  observer.observe(root, { childList: true, subtree: true });

  return {
    scan,
    get enhancedCount() {
      let count = 0;
      for (const element of live) count += enhanced.get(element)?.size ?? 0;
      return count;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      observer.disconnect();
      for (const element of [...live]) release(element);
    },
  };
}
