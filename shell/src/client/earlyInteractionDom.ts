// The DOM steps of earlyInteractions.ts: finding a node again after hydration, and giving a field
// the reader's value or Enter press back the way a reader's own would arrive.

/** The child-index path from `root` down to `node`; null when `node` is not inside `root`. */
export function pathFrom(root: Element, node: Node): number[] | null {
  const path: number[] = [];
  let current: Node | null = node;
  while (current && current !== root) {
    const parent: Node | null = current.parentNode;
    if (!parent) return null;
    path.unshift(Array.prototype.indexOf.call(parent.childNodes, current));
    current = parent;
  }
  return current === root ? path : null;
}

/** The node at `path` below `root`, or null when the markup changed shape. */
export function nodeAt(root: Element, path: readonly number[]): Node | null {
  let current: Node | null = root;
  for (const index of path) {
    current = current?.childNodes[index] ?? null;
    if (!current) return null;
  }
  return current;
}

/** The nearest element at or above `node` that can take a click. */
export function clickableElement(node: Node | null): HTMLElement | null {
  let current: Node | null = node;
  while (current && current.nodeType !== 1) current = current.parentNode;
  return (current as HTMLElement | null) ?? null;
}

export type EditableField = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** Text-like fields and selects: their value is what a reader edits (boxes and radios are clicked). */
export function editableField(target: EventTarget | null): EditableField | null {
  const element = target as Element | null;
  if (!element || element.nodeType !== 1) return null;
  if (element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') return element as EditableField;
  if (element.tagName !== 'INPUT') return null;
  const type = (element as HTMLInputElement).type;
  return ['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image', 'hidden'].includes(type) ? null : (element as HTMLInputElement);
}

/**
 * Sets a field's value the way a reader's edit does, so a framework that tracks the value it last
 * rendered (React) sees a change: through the element type's own setter, then an `input` event
 * (and `change` for a select).
 */
export function applyReaderValue(field: EditableField, value: string): void {
  const prototype = Object.getPrototypeOf(field) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(field, value);
  else field.value = value;
  if (field.tagName !== 'SELECT' && field === field.ownerDocument.activeElement && 'setSelectionRange' in field) {
    try {
      (field as HTMLInputElement).setSelectionRange(value.length, value.length);
    } catch {
      // Fields without a caret (email, number) refuse it; nothing to restore then.
    }
  }
  field.dispatchEvent(new Event('input', { bubbles: true }));
  if (field.tagName === 'SELECT') field.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * Replays Enter in a one-line field: to the component first; if nothing handled it (no
 * `preventDefault`), the field's form is submitted as the browser would have.
 */
export function pressEnter(field: EditableField | null): void {
  if (!field?.isConnected) return;
  const unhandled = field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', bubbles: true, cancelable: true }));
  if (unhandled && field.form) field.form.requestSubmit();
}
