/** Undoes what an enhancer did; runs at most once. */
export type Cleanup = () => void;

/**
 * Records every change an enhancer makes to the page (listeners, attributes, classes, inserted
 * nodes, timers) together with its inverse, so one call puts the server markup back exactly as
 * it was. Why: unmount must remove every listener, and an element that leaves the page and comes
 * back must be enhanceable again without doubled controls.
 */
export class UndoStack {
  private readonly steps: Cleanup[] = [];
  private done = false;

  /** Registers any inverse step (run in reverse order of registration). */
  defer(step: Cleanup): void {
    this.steps.push(step);
  }

  /** `addEventListener` that is removed on undo. */
  listen<K extends keyof HTMLElementEventMap>(
    target: HTMLElement,
    type: K,
    listener: (event: HTMLElementEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ): void;
  listen<K extends keyof WindowEventMap>(
    target: Window,
    type: K,
    listener: (event: WindowEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ): void;
  listen<K extends keyof DocumentEventMap>(
    target: Document,
    type: K,
    listener: (event: DocumentEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ): void;
  listen(target: EventTarget, type: string, listener: (event: Event) => void, options?: AddEventListenerOptions): void;
  listen(target: EventTarget, type: string, listener: (event: never) => void, options?: AddEventListenerOptions): void {
    const handler = listener as EventListener;
    target.addEventListener(type, handler, options);
    this.defer(() => target.removeEventListener(type, handler, options));
  }

  /** Sets an attribute; undo restores the previous value (or removes it). */
  setAttribute(element: Element, name: string, value: string): void {
    const previous = element.getAttribute(name);
    element.setAttribute(name, value);
    this.defer(() => (previous === null ? element.removeAttribute(name) : element.setAttribute(name, previous)));
  }

  /** Removes an attribute; undo puts it back. */
  removeAttribute(element: Element, name: string): void {
    const previous = element.getAttribute(name);
    if (previous === null) return;
    element.removeAttribute(name);
    this.defer(() => element.setAttribute(name, previous));
  }

  /** Adds a class that the element did not have; undo removes it again. */
  addClass(element: Element, className: string): void {
    if (element.classList.contains(className)) return;
    const hadClassAttribute = element.hasAttribute('class');
    element.classList.add(className);
    this.defer(() => {
      element.classList.remove(className);
      if (!hadClassAttribute && element.getAttribute('class') === '') element.removeAttribute('class');
    });
  }

  /** Sets an inline style property (e.g. a CSS custom property); undo restores it. */
  setStyle(element: HTMLElement, property: string, value: string): void {
    const previous = element.style.getPropertyValue(property);
    const hadStyleAttribute = element.hasAttribute('style');
    element.style.setProperty(property, value);
    this.defer(() => {
      if (previous) element.style.setProperty(property, previous);
      else element.style.removeProperty(property);
      if (!hadStyleAttribute && element.getAttribute('style') === '') element.removeAttribute('style');
    });
  }

  /** Inserts a node the enhancer created; undo removes it. */
  insert<T extends Node>(node: T, parent: Node, before: Node | null = null): T {
    parent.insertBefore(node, before);
    this.defer(() => node.parentNode?.removeChild(node));
    return node;
  }

  /** Runs every inverse step, newest first. Safe to call twice. */
  run(): void {
    if (this.done) return;
    this.done = true;
    for (let index = this.steps.length - 1; index >= 0; index -= 1) {
      try {
        this.steps[index]!();
      } catch (error) {
        console.warn('[mf-widgets] a cleanup step failed; the others still ran', error);
      }
    }
    this.steps.length = 0;
  }
}

/**
 * Runs an enhancer body with a fresh undo stack. Returns the cleanup; if the body throws, the
 * changes made so far are undone first so a half-enhanced widget never stays on the page.
 */
export function withUndo(body: (undo: UndoStack) => void): Cleanup {
  const undo = new UndoStack();
  try {
    body(undo);
  } catch (error) {
    undo.run();
    throw error;
  }
  return () => undo.run();
}
