import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, readdir, readlink } from 'node:fs/promises';
import { Builder, Key as SeleniumKey, By, type WebDriver } from 'selenium-webdriver';
import { CSP_WATCH_SOURCE, poll, type Engine, type EnginePage, type EngineSession, type Key } from './driver.js';

/** Debian's `webkit2gtk-driver`: the driver and the MiniBrowser it automates. */
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const KEYS: Record<Exclude<Key, 'Shift+Tab'>, string> = {
  Enter: SeleniumKey.ENTER,
  Escape: SeleniumKey.ESCAPE,
  Tab: SeleniumKey.TAB,
  ArrowDown: SeleniumKey.ARROW_DOWN,
  ArrowUp: SeleniumKey.ARROW_UP,
  ArrowLeft: SeleniumKey.ARROW_LEFT,
  ArrowRight: SeleniumKey.ARROW_RIGHT,
  Home: SeleniumKey.HOME,
  End: SeleniumKey.END,
  Space: ' ',
};

/** An X server of its own (MiniBrowser needs a display and refuses `--headless`): Xvfb picks a free display number. */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  xvfb.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const display = await new Promise<string>((resolve, reject) => {
    xvfb.stdio[3]!.once('data', (data) => resolve(`:${String(data).trim()}`));
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it had a display: ${stderr}`)));
  });
  return { display, process: xvfb };
}

/** WebKitGTK's MiniBrowser through WebKitWebDriver (W3C WebDriver, selenium-webdriver), on an X server of its own. */
export async function launchWebKit(): Promise<Engine> {
  const xvfb = await startXvfb();
  const drivers = new Set<ChildProcess>();
  return {
    name: 'webkit',
    // One WebKitWebDriver and MiniBrowser per session: a fresh visitor each.
    async newSession({ javaScript = true } = {}): Promise<EngineSession> {
      // Port 0: the driver binds a port of the kernel's choosing, read back from /proc (no port is
      // picked here and bound later by someone else).
      const driverProcess = spawn(WEBKIT_DRIVER_PATH, ['--port=0'], { env: { ...process.env, DISPLAY: xvfb.display }, stdio: ['ignore', 'pipe', 'pipe'] });
      drivers.add(driverProcess);
      const record = recordDriver(driverProcess);
      const port = await listeningPortOf(driverProcess);
      // The page's own scripts off, the driver's on (`--enable-javascript-markup`).
      // Tab reaches links as in the other engines (WebKit's default skips them, Safari's "Press Tab to highlight each item").
      const args = ['--automation', '--enable-tabs-to-links=true', ...(javaScript ? [] : ['--enable-javascript-markup=false'])];
      const driver = await connect(`http://127.0.0.1:${port}`, args);
      record.commandsOf(driver);
      // axe-core's run takes its time on a loaded machine (the test's own timeout bounds it).
      await driver.manage().setTimeouts({ script: 120_000 });
      // One command at a time per session, each with its window switch, and the quit only after the
      // last: a test that timed out leaves its command running while the fixtures read the CSP
      // record and quit, and a command answered after WebKitWebDriver (2.50) deleted its session
      // crashed it (SIGSEGV: its port then refuses, ECONNREFUSED).
      let queue: Promise<unknown> = Promise.resolve();
      const serial = <T>(work: () => Promise<T>): Promise<T> => {
        const run = queue.then(work, work);
        queue = run.catch(() => undefined);
        return run;
      };
      const pages: EnginePage[] = [];
      return {
        newPage: () =>
          serial(async () => {
            // A window, not a tab: MiniBrowser opens a tab in the background, where a page gets no frames.
            if (pages.length > 0) await driver.switchTo().newWindow('window');
            const page = webkitPage(driver, await driver.getWindowHandle(), serial);
            pages.push(page);
            return page;
          }),
        async close() {
          await serial(async () => {
            record.quitting = true;
            await driver.quit().catch(() => undefined);
          });
          driverProcess.kill();
          drivers.delete(driverProcess);
        },
      };
    },
    async close() {
      for (const driverProcess of drivers) driverProcess.kill();
      xvfb.process.kill();
    },
  };
}

/**
 * What a driver said and the last commands it got, printed if it ends unasked (a crash: its exit
 * signal, its and MiniBrowser's output, the command it was answering).
 */
function recordDriver(child: ChildProcess): { quitting: boolean; commandsOf(driver: WebDriver): void } {
  const output: string[] = [];
  const commands: string[] = [];
  const keep = (list: string[], line: string, most: number) => {
    list.push(`${new Date().toISOString()} ${line}`);
    if (list.length > most) list.shift();
  };
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk) => String(chunk).split('\n').filter(Boolean).forEach((line) => keep(output, line, 50)));
  const record = {
    quitting: false,
    commandsOf(driver: WebDriver) {
      const executor = driver.getExecutor() as unknown as { execute(command: { getName(): string }): Promise<unknown> };
      const execute = executor.execute.bind(executor);
      executor.execute = (command) => {
        keep(commands, command.getName(), 20);
        return execute(command);
      };
    },
  };
  child.once('exit', (code, signal) => {
    if (record.quitting && signal !== 'SIGSEGV' && signal !== 'SIGABRT') return;
    console.error(
      `[webkit] ${WEBKIT_DRIVER_PATH} (pid ${child.pid}) ended unasked: ${signal ?? `exit code ${code}`}\n` +
        `  its output (and MiniBrowser's):\n    ${output.join('\n    ') || '(none)'}\n  its last commands:\n    ${commands.join('\n    ')}`,
    );
  });
  return record;
}

/** A session, once the driver listens (it takes a moment to start). */
async function connect(server: string, args: string[]): Promise<WebDriver> {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      return await new Builder()
        .usingServer(server)
        .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args } })
        .build();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

function webkitPage(driver: WebDriver, handle: string, serial: <T>(work: () => Promise<T>) => Promise<T>): EnginePage {
  // Commands go to this tab: the session may have several.
  const here = async () => {
    if ((await driver.getWindowHandle()) !== handle) await driver.switchTo().window(handle);
  };
  const evaluateHere = async <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> => {
    await here();
    const answer = (await driver.executeAsyncScript(
      `${CSP_WATCH_SOURCE}
      const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn.toString()})(arguments[0])).then((value) => done({ value }), (error) => done({ error: String(error && error.stack || error) }));`,
      arg ?? null,
    )) as { value?: R; error?: string };
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.value as R;
  };
  return {
    goto: (url) =>
      serial(async () => {
        await here();
        await driver.get(url);
        await evaluateHere(() => undefined);
      }),
    reload: () =>
      serial(async () => {
        await here();
        await driver.navigate().refresh();
        await evaluateHere(() => undefined);
      }),
    url: () =>
      serial(async () => {
        await here();
        return driver.getCurrentUrl();
      }),
    evaluate: (fn, arg) => serial(() => evaluateHere(fn, arg)),
    addScript: (source) =>
      serial(async () => {
        await here();
        await driver.executeScript(source);
      }),
    async click(selector) {
      // Polled from here, one command at a time (no clock of its own: the test's timeout bounds it).
      await poll(`${selector} to click`, () =>
        serial(async () => {
          await here();
          const [element] = await driver.findElements(By.css(selector));
          if (!element || !(await element.isDisplayed())) return false;
          // In the middle of the viewport, as Playwright clicks: WebDriver scrolls an element only to
          // the viewport's bottom edge, under the consent banner fixed there (click intercepted).
          await driver.executeScript('arguments[0].scrollIntoView({ block: "center", inline: "center" })', element);
          await element.click();
          return true;
        }),
      );
    },
    type: (text) =>
      serial(async () => {
        await here();
        await driver.actions().sendKeys(text).perform();
      }),
    press: (key) =>
      serial(async () => {
        await here();
        if (key === 'Shift+Tab') await driver.actions().keyDown(SeleniumKey.SHIFT).sendKeys(SeleniumKey.TAB).keyUp(SeleniumKey.SHIFT).perform();
        else await driver.actions().sendKeys(KEYS[key]).perform();
      }),
    // WebKitWebDriver tells no console messages.
    errors: () => [],
    close: () =>
      serial(async () => {
        await here();
        await driver.close();
      }),
  };
}

/**
 * The TCP port a child process listens on: its sockets' inodes (`/proc/<pid>/fd`) matched with the
 * listening sockets of `/proc/net/tcp` and `tcp6`. Waits until it listens or exits.
 */
async function listeningPortOf(child: ChildProcess): Promise<number> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${WEBKIT_DRIVER_PATH} exited (${child.exitCode ?? child.signalCode}) before it listened`);
    const inodes = new Set<string>();
    for (const fd of await readdir(`/proc/${child.pid}/fd`).catch(() => [])) {
      const target = await readlink(`/proc/${child.pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    }
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        // local address, state 0A (LISTEN), inode
        if (fields[3] === '0A' && inodes.has(fields[9] ?? '')) return Number.parseInt(fields[1]!.split(':').pop()!, 16);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
