import type { CDPSession } from '@playwright/test';

/**
 * Types `text` as a visitor's keyboard does: key `i` is pressed `intervalMs × i` after the first,
 * whatever the page is doing; each key event is stamped with its press time and sent without
 * waiting for the page to handle the one before (CDP `Input.dispatchKeyEvent`). Playwright's
 * `keyboard.type` waits for each key to be handled before it presses the next, so a long task in
 * the page delays the next press: a pause the visitor never made (longer than a debounce), and
 * fewer keys meet the page's long tasks than a visitor's would (what INP counts). Letters and spaces.
 * Resolves when the page handled every key. Used by the e2e tests and the page-weight benchmark.
 * @param options.whileHeld  A long task holds the page now (the page takes no key before it
 *   ends): every key is sent at once, stamped as pressed `intervalMs` apart, so the test's own
 *   timing on a loaded machine cannot make a pause the visitor never made. Default `false`: each
 *   key is sent at its press time (a starved test runner sends late keys, stamped earlier).
 */
export async function typeLikeAVisitor(cdp: CDPSession, text: string, intervalMs: number, { whileHeld = false }: { whileHeld?: boolean } = {}): Promise<void> {
  const start = Date.now();
  const sent: Array<Promise<unknown>> = [];
  for (const [index, key] of [...text].entries()) {
    const pressedAt = start + index * intervalMs;
    if (!whileHeld) await new Promise((resolve) => setTimeout(resolve, Math.max(0, pressedAt - Date.now())));
    const code = key === ' ' ? 'Space' : `Key${key.toUpperCase()}`;
    const windowsVirtualKeyCode = key.toUpperCase().charCodeAt(0);
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', timestamp: pressedAt / 1000, key, code, windowsVirtualKeyCode, text: key, unmodifiedText: key }));
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', timestamp: (pressedAt + intervalMs / 2) / 1000, key, code, windowsVirtualKeyCode }));
  }
  await Promise.all(sent);
}
