import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../harness/chromium.js';
import { CSP_WATCH_SOURCE, type Engine, type EnginePage, type EngineSession, type Key } from './driver.js';

/** Chromium (Debian's package) through Playwright, as the rest of the suite drives it. */
export async function launchChromium(): Promise<Engine> {
  const browser: Browser = await chromium.launch(chromiumLaunchOptions());
  return {
    name: 'chromium',
    async newSession({ javaScript = true } = {}): Promise<EngineSession> {
      const context = await browser.newContext({ javaScriptEnabled: javaScript });
      await context.addInitScript(CSP_WATCH_SOURCE);
      return { newPage: async () => chromiumPage(await context.newPage()), close: () => context.close() };
    },
    close: () => browser.close(),
  };
}

function chromiumPage(page: Page): EnginePage {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return {
    goto: async (url) => void (await page.goto(url)),
    reload: async () => void (await page.reload()),
    url: async () => page.url(),
    evaluate: (fn, arg) => page.evaluate(fn, arg as never),
    addScript: async (source) => void (await page.evaluate(source)),
    click: (selector) => page.click(selector),
    type: (text) => page.keyboard.type(text),
    press: (key: Key) => page.keyboard.press(key === 'Space' ? ' ' : key),
    errors: () => errors,
    close: () => page.close(),
  };
}
