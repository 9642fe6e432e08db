// @vitest-environment jsdom
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createPageBus, examplePageConfig, type IslandContext } from 'contracts';
import { IDLE_TIMEOUT_MS, ISLAND_WAITING_ATTRIBUTE, VISIBLE_ROOT_MARGIN, whenTriggered } from './hydrationTriggers.js';
import { startIslandRuntime, type ModuleLoader } from './islandRuntime.js';

/** A controllable IntersectionObserver: `show(element)` reports it as intersecting. */
function fakeIntersectionObserver() {
  const observers: Array<{ callback: IntersectionObserverCallback; targets: Element[]; options?: IntersectionObserverInit }> = [];
  class FakeObserver {
    private readonly entry: (typeof observers)[number];
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.entry = { callback, targets: [], options };
      observers.push(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.push(target);
    }
    disconnect() {
      this.entry.targets = [];
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  return {
    observers,
    show(element: Element) {
      for (const observer of observers.filter((candidate) => candidate.targets.includes(element))) {
        observer.callback([{ target: element, isIntersecting: true } as IntersectionObserverEntry], observer as never);
      }
    },
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
/**
 * Waits until `listener` saw the replayed click, however long the release's hydration frames and
 * idle wait take (no fixed delay: on a busy machine they take longer than any guess).
 */
const replayedOnce = (listener: ReturnType<typeof vi.fn>) => vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 5 });

/**
 * Long tasks on the main thread until the test ends, as on a loaded machine or a slow phone: every
 * timer turn is kept busy for `taskMs` (default 60), so frames and timers come late and bunched.
 */
function busyMainThread(taskMs = 60): void {
  const timer = setInterval(() => {
    const until = performance.now() + taskMs;
    while (performance.now() < until) {
      // Busy: nothing else runs meanwhile (timers, animation frames).
    }
  }, 1);
  onTestFinished(() => clearInterval(timer));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('hydration triggers', () => {
  it('immediate runs at once', () => {
    const run = vi.fn();
    whenTriggered(document.createElement('div'), 'immediate', run);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('visible waits until the element nears the viewport, then runs once', () => {
    const io = fakeIntersectionObserver();
    const element = document.createElement('div');
    const run = vi.fn();
    whenTriggered(element, 'visible', run);
    expect(run).not.toHaveBeenCalled();
    expect(io.observers[0]!.options?.rootMargin).toBe(VISIBLE_ROOT_MARGIN);
    io.show(element);
    io.show(element);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('idle waits for an idle moment, bounded by a timeout', () => {
    let idle: (() => void) | undefined;
    const requestIdleCallback = vi.fn((callback: () => void, _options?: IdleRequestOptions) => {
      idle = callback;
      return 7;
    });
    vi.stubGlobal('requestIdleCallback', requestIdleCallback);
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    const run = vi.fn();
    whenTriggered(document.createElement('div'), 'idle', run);
    expect(run).not.toHaveBeenCalled();
    expect(requestIdleCallback.mock.calls[0]![1]).toEqual({ timeout: IDLE_TIMEOUT_MS });
    idle!();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('interaction waits for the first pointer or focus on the element, then stops listening', () => {
    const element = document.createElement('div');
    element.innerHTML = '<button>inside</button>';
    document.body.append(element);
    const run = vi.fn();
    whenTriggered(element, 'interaction', run);
    document.body.dispatchEvent(new Event('focusin', { bubbles: true }));
    expect(run).not.toHaveBeenCalled();
    element.querySelector('button')!.dispatchEvent(new Event('focusin', { bubbles: true }));
    element.dispatchEvent(new Event('pointerover'));
    expect(run).toHaveBeenCalledTimes(1);
    element.remove();
  });

  it('a cancelled trigger never runs', () => {
    const io = fakeIntersectionObserver();
    const element = document.createElement('div');
    const run = vi.fn();
    const cancel = whenTriggered(element, 'visible', run);
    cancel();
    io.show(element);
    expect(run).not.toHaveBeenCalled();
  });

  it('marks a waiting island until its trigger fires', () => {
    const io = fakeIntersectionObserver();
    const element = document.createElement('div');
    whenTriggered(element, 'visible', () => {});
    expect(element.getAttribute(ISLAND_WAITING_ATTRIBUTE)).toBe('visible');
    io.show(element);
    expect(element.hasAttribute(ISLAND_WAITING_ATTRIBUTE)).toBe(false);
    const immediate = document.createElement('div');
    whenTriggered(immediate, 'immediate', () => {});
    expect(immediate.hasAttribute(ISLAND_WAITING_ATTRIBUTE)).toBe(false);
  });

  it('a click on a waiting island fires its trigger at once and is replayed once the island settled, also between long tasks', async () => {
    busyMainThread();
    fakeIntersectionObserver();
    const element = document.createElement('div');
    element.innerHTML = '<button type="button">Vote</button>';
    document.body.append(element);
    let settle!: () => void;
    const run = vi.fn(() => new Promise<void>((resolve) => (settle = resolve)));
    whenTriggered(element, 'visible', run);
    const button = element.querySelector('button')!;
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    button.dispatchEvent(click);
    expect(run).toHaveBeenCalledTimes(1);
    expect(click.defaultPrevented).toBe(true);
    const hydrated = vi.fn();
    button.addEventListener('click', hydrated);
    await flush();
    expect(hydrated).not.toHaveBeenCalled();
    settle();
    await replayedOnce(hydrated);
    // The frames after the replay (the edit watch) click nothing more.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    expect(hydrated).toHaveBeenCalledTimes(1);
    element.remove();
  });

  it('replays a held click also when the island failed (run rejected or threw), also between long tasks', async () => {
    busyMainThread();
    for (const run of [() => Promise.reject(new Error('load failed')), () => { throw new Error('mount threw'); }]) {
      const element = document.createElement('div');
      element.innerHTML = '<a href="#x">x</a>';
      document.body.append(element);
      const clicked = vi.fn((event: Event) => event.preventDefault());
      let started = false;
      whenTriggered(element, 'interaction', () => {
        started = true;
        // The replay listens on the node the fallback leaves in place.
        element.querySelector('a')!.addEventListener('click', clicked);
        return run();
      });
      const click = new MouseEvent('click', { bubbles: true, cancelable: true });
        element.querySelector('a')!.dispatchEvent(click);
      expect(started).toBe(true);
      await replayedOnce(clicked);
      element.remove();
    }
  });

  it('without the browser API a trigger needs, the island is not left behind: it runs at once', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const run = vi.fn();
    whenTriggered(document.createElement('div'), 'visible', run);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('island runtime with hydration triggers', () => {
  const context: IslandContext = {
    bus: createPageBus(),
    config: examplePageConfig({ remotes: [{ name: 'mf-a', entry: 'http://a.test/mf-manifest.json' }] }),
    getConsent: () => ({ insights: false, tracking: false }),
  };

  it('loads a visible island only when seen, and hydrates it over its server HTML with the server state', async () => {
    const io = fakeIntersectionObserver();
    const root = document.createElement('div');
    root.innerHTML = `
      <div data-island="mf-a/Top"><p>top</p></div>
      <div data-island="mf-a/Below" data-island-hydrate="visible"><p>server html</p></div><script type="application/json" data-island-ssr>{"state":{"votes":3}}</script>`;
    const loaded: string[] = [];
    const mounts: Array<{ html: string; hydration: unknown }> = [];
    const loadModule: ModuleLoader = async (id) => {
      loaded.push(id);
      return {
        default: (element, _props, islandContext) => {
          mounts.push({ html: element.innerHTML, hydration: islandContext.hydration });
          return () => {};
        },
      };
    };
    const runtime = startIslandRuntime({ root, context, registerRemotes: () => {}, loadModule });
    await flush();
    expect(loaded).toEqual(['mf-a/Top']);
    const below = root.querySelector<HTMLElement>('[data-island="mf-a/Below"]')!;
    expect(below.hasAttribute('data-island-state')).toBe(false);
    io.show(below);
    await runtime.ready;
    expect(loaded).toEqual(['mf-a/Top', 'mf-a/Below']);
    expect(below.getAttribute('data-island-state')).toBe('mounted');
    // The server HTML was still there to hydrate, with the server's state.
    expect(mounts[1]).toEqual({ html: '<p>server html</p>', hydration: { state: { votes: 3 } } });
  });
});
