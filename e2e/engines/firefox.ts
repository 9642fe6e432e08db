import puppeteer, { type Browser, type KeyInput, type Page } from 'puppeteer-core';
import { CSP_WATCH_SOURCE, type Engine, type EnginePage, type EngineSession, type Key } from './driver.js';

/** Firefox ESR from Debian's package; `FIREFOX_PATH` points elsewhere. */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Firefox ESR driven over WebDriver BiDi by puppeteer-core (no geckodriver: Debian does not package it). */
export async function launchFirefox(): Promise<Engine> {
  const browser: Browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });
  return {
    name: 'firefox',
    async newSession({ javaScript = true } = {}): Promise<EngineSession> {
      const context = await browser.createBrowserContext();
      return {
        async newPage() {
          const page = await context.newPage();
          // Firefox's BiDi has no switch for scripts (emulation.setScriptingEnabled is unknown to
          // 153 ESR): every script file the page asks for is refused instead, so none runs (the
          // CSP allows no inline script), and the driver's own `evaluate` still works.
          if (!javaScript) {
            await page.setRequestInterception(true);
            page.on('request', (request) => {
              if (request.isInterceptResolutionHandled()) return;
              if (request.resourceType() === 'script' || new URL(request.url()).pathname.endsWith('.js')) void request.abort();
              else void request.continue();
            });
          }
          await page.evaluateOnNewDocument(CSP_WATCH_SOURCE);
          return firefoxPage(page);
        },
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}

function firefoxPage(page: Page): EnginePage {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // Firefox reports a CSP violation as a page error too.
  page.on('pageerror', (error) => errors.push(String(error)));
  return {
    goto: async (url) => void (await page.goto(url)),
    reload: async () => void (await page.reload()),
    url: async () => page.url(),
    evaluate: (fn, arg) => page.evaluate(fn as never, arg as never),
    addScript: async (source) => void (await page.evaluate(source)),
    async click(selector) {
      await page.waitForSelector(selector, { visible: true });
      await page.click(selector);
    },
    type: (text) => page.keyboard.type(text),
    async press(key: Key) {
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
