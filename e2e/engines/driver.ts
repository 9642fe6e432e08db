// The small engine-neutral driver the cross-engine subset is written against: one adapter per
// engine (chromium.ts: Playwright; firefox.ts: puppeteer-core over WebDriver BiDi; webkit.ts:
// selenium-webdriver over WebKitWebDriver). Everything else (waits, CSP watch, axe) is built on
// `evaluate` here, once.

export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** Keys the subset presses; `Shift+Tab` holds Shift. */
export type Key = 'Enter' | 'Escape' | 'Tab' | 'Shift+Tab' | 'ArrowDown' | 'ArrowUp' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End' | 'Space';

/** One tab. */
export interface EnginePage {
  /** Opens `url` and resolves once its load event fired. */
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  url(): Promise<string>;
  /** Runs `fn(arg)` in the page (not bound by the page's CSP) and returns its JSON-able result. */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Runs a script's source text in the page as is (axe), not bound by the page's CSP. */
  addScript(source: string): Promise<void>;
  /** A real pointer click in the middle of the first element matching `selector` (scrolled into view). */
  click(selector: string): Promise<void>;
  /** Types `text` key by key into the focused element. */
  type(text: string): Promise<void>;
  press(key: Key): Promise<void>;
  /** Console errors and uncaught page errors, where the engine's driver tells them (not WebKitWebDriver). */
  errors(): string[];
  close(): Promise<void>;
}

/** A browsing session with its own cookies and storage (a fresh visitor). */
export interface EngineSession {
  newPage(): Promise<EnginePage>;
  close(): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  /** `javaScript: false`: pages run none of their scripts (the driver's own `evaluate` still works). */
  newSession(options?: { javaScript?: boolean }): Promise<EngineSession>;
  close(): Promise<void>;
}

/**
 * Installed into every document before its scripts where the driver can (Chromium, Firefox), else
 * at the driver's next call into the page (WebKitWebDriver has neither console nor init scripts):
 * records each `securitypolicyviolation` in the tab's session storage, which survives the tab's
 * navigations, so one read at the end of a test lists them all.
 */
export const CSP_WATCH_SOURCE = `(() => {
  if (window.__khsCspWatch) return;
  window.__khsCspWatch = true;
  document.addEventListener('securitypolicyviolation', (event) => {
    try {
      const seen = JSON.parse(sessionStorage.getItem('khs:e2e-csp') || '[]');
      seen.push(event.effectiveDirective + ' ' + event.blockedURI + ' on ' + location.pathname);
      sessionStorage.setItem('khs:e2e-csp', JSON.stringify(seen));
    } catch {}
  }, true);
})();`;

/** The CSP violations the tab's documents recorded so far. */
export function cspViolations(page: EnginePage): Promise<string[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('khs:e2e-csp') ?? '[]') as string[]);
}

/**
 * What a wait is waiting for now, and the last value it saw: the fixtures name it when a test times
 * out (waits have no clock of their own: the test's timeout bounds them, however busy the machine).
 */
export const currentWait: { message?: string; last?: unknown } = {};

/** The pending wait, described for a report. */
export function describeCurrentWait(): string | undefined {
  const { message, last } = currentWait;
  if (message === undefined) return undefined;
  return `waiting for ${message}; last: ${String(last instanceof Error ? last.message : JSON.stringify(last))}`;
}

let testsEnded = 0;

/**
 * Ends the waits of the test that is over (fixtures.ts, before its tabs are read and closed): a
 * test that timed out leaves its wait polling, which would go on into the next tests and send
 * commands to a browser being closed.
 */
export function endWaits(): void {
  testsEnded += 1;
}

/** Whether the test that called this has ended since (`endWaits`). */
export function testEndedSince(): () => boolean {
  const at = testsEnded;
  return () => testsEnded !== at;
}

/**
 * Calls `attempt` every 100 ms until it returns a truthy value, and resolves with it (the test's
 * timeout ends a wait that never comes: `currentWait` names it, with the last value seen before
 * the test ended). An attempt that throws is a miss (a navigation meanwhile), not a failure.
 */
export async function poll<R>(message: string, attempt: () => Promise<R>): Promise<NonNullable<R>> {
  const ended = testEndedSince();
  currentWait.message = message;
  currentWait.last = undefined;
  for (;;) {
    if (ended()) throw new Error(`the test ended while waiting for ${message}`);
    try {
      const seen = await attempt();
      if (!ended()) currentWait.last = seen;
      if (seen) {
        currentWait.message = undefined;
        return seen as NonNullable<R>;
      }
    } catch (error) {
      if (!ended()) currentWait.last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until `fn(arg)` in the page returns a truthy value and resolves with it (`poll`). */
export function waitFor<R, A = undefined>(page: EnginePage, fn: (arg: A) => R, arg?: A, { message = fn.toString() } = {}): Promise<NonNullable<R>> {
  return poll(message, () => page.evaluate(fn, arg as A));
}

/** Waits until an element matches `selector` and is rendered (has a box). */
export function waitForVisible(page: EnginePage, selector: string): Promise<boolean> {
  return waitFor(
    page,
    (css) => {
      const element = document.querySelector(css);
      return !!element && element.getClientRects().length > 0;
    },
    selector,
    { message: `${selector} visible` },
  );
}

/** Focuses the first element matching `selector`. */
export async function focus(page: EnginePage, selector: string): Promise<void> {
  await waitForVisible(page, selector);
  await page.evaluate((css) => (document.querySelector(css) as HTMLElement).focus(), selector);
}
