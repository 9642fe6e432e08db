import puppeteer, { type Browser, type KeyInput, type Page } from 'puppeteer-core';
import { CSP_WATCH_SOURCE, poll, type Engine, type EnginePage, type EngineSession, type Key } from './driver.js';

/** Firefox ESR from Debian's package; `FIREFOX_PATH` points elsewhere. */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Firefox ESR driven over WebDriver BiDi by puppeteer-core (no geckodriver: Debian does not package it). */
export async function launchFirefox(): Promise<Engine> {
  const launch = (prefs: Record<string, unknown> = {}) => puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, extraPrefsFirefox: prefs });
  const browser: Browser = await launch();
  // Firefox's BiDi has no switch for a page's scripts (emulation.setScriptingEnabled is unknown to
  // 153 ESR, request interception unsupported): a second browser with scripts off, when asked for.
  let withoutScripts: Promise<Browser> | undefined;
  return {
    name: 'firefox',
    async newSession({ javaScript = true } = {}): Promise<EngineSession> {
      const owner = javaScript ? browser : await (withoutScripts ??= launch({ 'javascript.enabled': false }));
      const context = await owner.createBrowserContext();
      // The page the driver acts on is the front one (a background tab gets no frames).
      const front = { page: undefined as Page | undefined };
      return {
        async newPage() {
          const page = await context.newPage();
          await page.evaluateOnNewDocument(CSP_WATCH_SOURCE);
          return firefoxPage(page, front);
        },
        close: () => context.close(),
      };
    },
    async close() {
      await (await withoutScripts)?.close();
      await browser.close();
    },
  };
}

function firefoxPage(page: Page, front: { page: Page | undefined }): EnginePage {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // Firefox reports a CSP violation as a page error too.
  page.on('pageerror', (error) => errors.push(String(error)));
  front.page = page;
  const here = async () => {
    if (front.page === page) return;
    await page.bringToFront();
    front.page = page;
  };
  return {
    goto: async (url) => {
      await here();
      await page.goto(url);
    },
    reload: async () => {
      await here();
      await page.reload();
    },
    url: async () => page.url(),
    evaluate: async (fn, arg) => {
      await here();
      return page.evaluate(fn as never, arg as never);
    },
    addScript: async (source) => {
      await here();
      await page.evaluate(source);
    },
    async click(selector) {
      await here();
      // Polled from here, not with waitForSelector: puppeteer waits on the page's animation frames,
      // which a page without scripts never gets (the no-scripts visitor's load-more link was never
      // "visible"). The click is a real pointer click at the element's centre.
      const box = await visibleBox(page, selector);
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    },
    type: async (text) => {
      await here();
      await page.keyboard.type(text);
    },
    async press(key: Key) {
      await here();
      if (key === 'Shift+Tab') {
        await page.keyboard.down('Shift');
        await page.keyboard.press('Tab');
        await page.keyboard.up('Shift');
      } else {
        await page.keyboard.press(key as KeyInput);
      }
    },
    errors: () => errors,
    close: () => page.close(),
  };
}

/** The element's box once it is laid out and visible, scrolled to the middle of the viewport (polled: the test's timeout bounds it). */
function visibleBox(page: Page, selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  return poll(`${selector} visible to click`, () =>
    page.evaluate((css) => {
      const element = document.querySelector(css);
      if (!element || getComputedStyle(element).visibility === 'hidden') return null;
      element.scrollIntoView({ block: 'center', inline: 'center' });
      const { x, y, width, height } = element.getBoundingClientRect();
      return width > 0 && height > 0 ? { x, y, width, height } : null;
    }, selector),
  );
}
