// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { ISLAND_HYDRATION_MISMATCH_EVENT } from 'contracts';
import { FIRST_COMMIT_TIMEOUT_MS, mountReactIsland } from './mountReactIsland.js';
import { renderReactIsland } from './renderReactIsland.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Boom(): never {
  throw new Error('render failed');
}

describe('mountReactIsland', () => {
  afterEach(() => vi.restoreAllMocks());

  it('replaces the server fallback with the rendered tree and unmounts cleanly', async () => {
    const element = document.createElement('div');
    element.innerHTML = '<span>fallback</span>';
    let mounting!: Promise<() => void>;
    await act(async () => {
      mounting = mountReactIsland(element, 'test/Ok', <p>live</p>);
    });
    const unmount = await mounting;
    expect(element.textContent).toBe('live');
    await act(async () => unmount());
    expect(element.textContent).toBe('');
  });

  it('settles only once React committed the island, so a click replayed then meets its handlers', async () => {
    const element = document.createElement('div');
    element.innerHTML = '<button type="button">0</button>';
    const clicks = vi.fn();
    function Counter() {
      const [count, setCount] = useState(0);
      return (
        <button type="button" onClick={() => (clicks(), setCount(count + 1))}>
          {count}
        </button>
      );
    }
    let settled = false;
    let mounting!: Promise<() => void>;
    act(() => {
      mounting = mountReactIsland(element, 'test/Counter', <Counter />, { hydrate: true });
      void mounting.then(() => (settled = true));
    });
    expect(settled).toBe(false);
    await act(async () => {
      await mounting;
    });
    expect(settled).toBe(true);
    await act(async () => element.querySelector('button')!.click());
    expect(clicks).toHaveBeenCalledTimes(1);
    expect(element.textContent).toBe('1');
  });

  it('with firstCommitTimeoutMs Infinity settles at the commit only; by default a hydration slower than FIRST_COMMIT_TIMEOUT_MS settles before it', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    // Only the mount's own timer is faked: React's scheduler works on its own (setImmediate), later.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const committed: string[] = [];
      function Marked({ name }: { name: string }) {
        useLayoutEffect(() => void committed.push(name), [name]);
        return <button type="button">{name}</button>;
      }
      const mount = (name: string, options: { firstCommitTimeoutMs?: number }) => {
        const element = document.createElement('div');
        element.innerHTML = renderReactIsland(`test/${name}`, <Marked name={name} />).html;
        document.body.append(element);
        const settled: string[] = [];
        const mounting = mountReactIsland(element, `test/${name}`, <Marked name={name} />, { hydrate: true, ...options });
        void mounting.then(() => settled.push(committed.includes(name) ? 'after commit' : 'before commit'));
        return { settled, mounting };
      };
      const bounded = mount('bounded', {});
      const waiting = mount('waiting', { firstCommitTimeoutMs: Infinity });
      // The hydration has not run yet when the bound passes (as on a slow device).
      vi.advanceTimersByTime(FIRST_COMMIT_TIMEOUT_MS);
      await Promise.resolve();
      await Promise.resolve();
      expect(bounded.settled).toEqual(['before commit']);
      expect(waiting.settled).toEqual([]);
      vi.useRealTimers();
      (await waiting.mounting)();
      expect(waiting.settled).toEqual(['after commit']);
      (await bounded.mounting)();
    } finally {
      vi.useRealTimers();
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
      document.body.innerHTML = '';
    }
  });

  it('puts the fallback back and logs when the tree throws', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const element = document.createElement('div');
    element.innerHTML = '<span>fallback</span>';
    await act(async () => {
      mountReactIsland(element, 'test/Boom', <Boom />);
    });
    await act(async () => {
      await Promise.resolve();
    });
    expect(element.innerHTML).toBe('<span>fallback</span>');
    expect(error.mock.calls.some((call) => String(call[0]).includes('test/Boom'))).toBe(true);
  });

  it('hydrates the server render of the same tree: keeps its DOM nodes and makes them interactive', async () => {
    function Counter({ start }: { start: number }) {
      const [count, setCount] = useState(start);
      return (
        <button type="button" onClick={() => setCount(count + 1)}>
          {count}
        </button>
      );
    }
    const warn = vi.fn();
    const element = document.createElement('div');
    document.body.append(element);
    element.innerHTML = renderReactIsland('test/Counter', <Counter start={3} />).html;
    const serverButton = element.querySelector('button');
    await act(async () => {
      mountReactIsland(element, 'test/Counter', <Counter start={3} />, { hydrate: true, log: { warn } });
    });
    expect(element.querySelector('button')).toBe(serverButton);
    await act(async () => serverButton!.click());
    expect(serverButton!.textContent).toBe('4');
    expect(warn).not.toHaveBeenCalled();
    element.remove();
  });

  it('logs a hydration mismatch and renders the island on the client instead', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.fn();
    const element = document.createElement('div');
    document.body.append(element);
    element.innerHTML = renderReactIsland('test/Text', <p>server</p>).html;
    await act(async () => {
      mountReactIsland(element, 'test/Text', <p>client</p>, { hydrate: true, log: { warn } });
    });
    expect(element.textContent).toBe('client');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('[test/Text] server HTML did not match');
    element.remove();
  });

  it('signals a hydration mismatch once, as a bubbling event on the element', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const container = document.createElement('section');
    const element = document.createElement('div');
    container.append(element);
    document.body.append(container);
    const signalled: EventTarget[] = [];
    container.addEventListener(ISLAND_HYDRATION_MISMATCH_EVENT, (event) => signalled.push(event.target!));
    element.innerHTML = renderReactIsland('test/Text', <><p>server</p><p>two</p></>).html;
    await act(async () => {
      mountReactIsland(element, 'test/Text', <><p>client</p><b>other</b></>, { hydrate: true, log: { warn: () => {} } });
    });
    expect(element.textContent).toBe('clientother');
    expect(signalled).toEqual([element]);
    container.remove();
  });

  it('signals nothing when the server HTML matches', async () => {
    const element = document.createElement('div');
    document.body.append(element);
    const signalled = vi.fn();
    element.addEventListener(ISLAND_HYDRATION_MISMATCH_EVENT, signalled);
    element.innerHTML = renderReactIsland('test/Text', <p>same</p>).html;
    await act(async () => {
      mountReactIsland(element, 'test/Text', <p>same</p>, { hydrate: true, log: { warn: () => {} } });
    });
    expect(element.textContent).toBe('same');
    expect(signalled).not.toHaveBeenCalled();
    element.remove();
  });

  // Outside `act` (which runs every effect before it returns): as the page's runtime awaits the mount.
  describe('as the browser runs it (no act)', () => {
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    afterEach(() => {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
      document.body.innerHTML = '';
    });

    /** A store a controlled box reads through `useSyncExternalStore` (subscribed in a passive effect), as the search box's autocomplete. */
    function createStore(initial: string) {
      let value = initial;
      const listeners = new Set<() => void>();
      return {
        get: () => value,
        set(next: string) {
          value = next;
          for (const listener of listeners) listener();
        },
        subscribe(listener: () => void) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      };
    }

    it("settles once the island's effects ran: text put into a controlled box the moment it settles reaches the store and stays in the box", async () => {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
      const store = createStore('team');
      function Box() {
        const value = useSyncExternalStore(store.subscribe, store.get, store.get);
        return <input value={value} onChange={(event) => store.set(event.target.value)} />;
      }
      const element = document.createElement('div');
      document.body.append(element);
      element.innerHTML = renderReactIsland('test/Box', <Box />).html;
      const input = element.querySelector('input')!;
      const unmount = await mountReactIsland(element, 'test/Box', <Box />, { hydrate: true, log: { warn: () => {} } });
      // Typed as the island settles (the search list hands over text typed while it hydrated).
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, 'teams');
      input.dispatchEvent(new Event('input', { bubbles: true }));
      expect(store.get()).toBe('teams');
      // Without the store's subscription React would have put the rendered value ('team') back.
      expect(input.value).toBe('teams');
      unmount();
    });

    it('hydrates in slices: other tasks run while a large island hydrates', async () => {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
      /** About 0.2 ms of work per item: some 60 ms for the island, far more than one 5 ms slice. */
      function Item({ label }: { label: string }) {
        const end = performance.now() + 0.2;
        while (performance.now() < end);
        return <li>{label}</li>;
      }
      const items = Array.from({ length: 300 }, (_, index) => `item ${index}`);
      const list = (
        <ul>
          {items.map((label) => (
            <Item key={label} label={label} />
          ))}
        </ul>
      );
      const element = document.createElement('div');
      document.body.append(element);
      element.innerHTML = renderReactIsland('test/List', list).html;
      let otherTasks = 0;
      const otherTask = setInterval(() => (otherTasks += 1), 0);
      const mounting = mountReactIsland(element, 'test/List', list, { hydrate: true, log: { warn: () => {} } });
      const before = otherTasks;
      const unmount = await mounting;
      clearInterval(otherTask);
      // In one task (a plain hydrateRoot) no other task would run until it is done.
      expect(otherTasks - before).toBeGreaterThan(3);
      expect(element.querySelectorAll('li')).toHaveLength(300);
      unmount();
    });
  });
});
