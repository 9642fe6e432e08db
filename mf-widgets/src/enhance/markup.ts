/**
 * Thrown by an enhancer when its markup is incomplete or broken. The engine logs one warning
 * for the element and leaves it as the server rendered it.
 */
export class MarkupError extends Error {
  override name = 'MarkupError';
}

/** The first descendant matching `selector`, or a MarkupError naming what is missing. */
export function requireChild<T extends Element = HTMLElement>(root: Element, selector: string, what: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new MarkupError(`missing ${what} (${selector})`);
  return found;
}

/** Every descendant matching `selector`; a MarkupError when there are fewer than `min`. */
export function requireChildren<T extends Element = HTMLElement>(root: Element, selector: string, what: string, min = 1): T[] {
  const found = [...root.querySelectorAll<T>(selector)];
  if (found.length < min) throw new MarkupError(`needs at least ${min} ${what} (${selector}), found ${found.length}`);
  return found;
}

let generatedIds = 0;

/** The element's id, giving it a fresh one (recorded by the caller's undo) when it has none. */
export function ensureId(element: Element, prefix: string, setAttribute: (element: Element, name: string, value: string) => void): string {
  if (element.id) return element.id;
  generatedIds += 1;
  const id = `${prefix}-${generatedIds}`;
  setAttribute(element, 'id', id);
  return id;
}
