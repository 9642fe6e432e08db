const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'audio[controls]',
  'video[controls]',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]',
].join(',');

/** Elements inside `root` that Tab reaches, in document order (hidden and inert ones left out). */
export function focusableIn(root: Element): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.tabIndex >= 0 && !element.closest('[hidden],[inert]') && element.getAttribute('aria-hidden') !== 'true',
  );
}

/**
 * The Tab key, with or without Shift. WebKitGTK (2.50) names Shift+Tab's key "Unidentified": X
 * sends it as GDK's ISO_Left_Tab, which its key-name table lacks; `code` still says "Tab".
 */
function isTabKey(event: KeyboardEvent): boolean {
  return event.key === 'Tab' || (event.key === 'Unidentified' && event.code === 'Tab');
}

/**
 * Keeps Tab and Shift+Tab inside `root`: from the last focusable element Tab goes to the first,
 * and back. Returns true when it moved focus (the caller then prevents the default).
 */
export function wrapTabFocus(root: Element, event: KeyboardEvent): boolean {
  if (!isTabKey(event)) return false;
  const focusable = focusableIn(root);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return false;
  const active = root.ownerDocument.activeElement;
  if (event.shiftKey && (active === first || !root.contains(active))) {
    last.focus();
    return true;
  }
  if (!event.shiftKey && (active === last || !root.contains(active))) {
    first.focus();
    return true;
  }
  return false;
}

/** Moves focus to `element` without scrolling the page when the browser supports it. */
export function focusWithoutScroll(element: HTMLElement): void {
  element.focus({ preventScroll: true });
}
