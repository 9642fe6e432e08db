// @vitest-environment jsdom
// The browser mounts of the two small watchlist islands: bound to their server markup without
// React (events, other tabs, storage failures, unmount), and given the same markup where they have none.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPageBus, examplePageConfig, WATCHLIST_STORAGE_KEY, type IslandContext, type PageBus, type SiteEvents } from 'contracts';
import mountButton from './WatchlistButton.js';
import mountLink from './WatchlistLink.js';
import { render as renderButtonOnServer } from './WatchlistButton.server.js';
import { render as renderLinkOnServer } from './WatchlistLink.server.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

const config = examplePageConfig();
const serverContext = () => ({ config, url: '/articles/x', signal: new AbortController().signal });

function islandContext(bus: PageBus, hydrated = true): IslandContext {
  return { bus, config, getConsent: () => ({ insights: false, tracking: false }), ...(hydrated ? { hydration: { state: null } } : {}) };
}

async function serverRendered(html: Promise<{ html: string }>): Promise<HTMLElement> {
  const element = document.createElement('div');
  element.innerHTML = (await html).html;
  document.body.append(element);
  return element;
}

const button = (element: HTMLElement) => element.querySelector('button')!;
const badge = (element: HTMLElement) => element.querySelector('.khs-watchlist-link__badge')!;

describe('WatchlistButton and WatchlistLink islands, bound without React', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });

  it('keep the server nodes, enable the button, toggle with updated then added, and the link follows through the bus', async () => {
    const bus = createPageBus();
    const events: string[] = [];
    bus.on('watchlist-updated', (e: SiteEvents['watchlist-updated']) => events.push(`updated:${e.count}`));
    bus.on('watchlist-added', (e: SiteEvents['watchlist-added']) => events.push(`added:${e.id}:${e.added}:${e.source}`));
    const link = await serverRendered(renderLinkOnServer({}, serverContext()));
    const article = await serverRendered(renderButtonOnServer({ id: 'a1', title: 'Feedback' }, serverContext()));
    const serverButton = button(article);
    expect(serverButton.disabled).toBe(true);

    await mountLink(link, {}, islandContext(bus));
    await mountButton(article, { id: 'a1', title: 'Feedback' }, islandContext(bus));
    expect(button(article)).toBe(serverButton);
    expect(serverButton.disabled).toBe(false);
    expect(serverButton.getAttribute('aria-pressed')).toBe('false');

    serverButton.click();
    expect(serverButton.getAttribute('aria-pressed')).toBe('true');
    expect(serverButton.getAttribute('data-saved')).toBe('true');
    expect(serverButton.textContent).toBe(config.i18n.watchlistRemove);
    expect(serverButton.querySelector('path')!.getAttribute('fill')).toBe('currentColor');
    expect(badge(link).textContent).toBe('1');
    expect(link.textContent).toContain('(1)');
    expect(JSON.parse(localStorage.getItem(WATCHLIST_STORAGE_KEY)!)).toEqual({ articles: { a1: { title: 'Feedback' } } });

    serverButton.click();
    expect(serverButton.getAttribute('aria-pressed')).toBe('false');
    expect(serverButton.textContent).toBe(config.i18n.watchlistAdd);
    expect(badge(link).getAttribute('data-count')).toBe('0');
    expect(events).toEqual(['updated:1', 'added:a1:true:mf-watchlist/WatchlistButton', 'updated:0', 'added:a1:false:mf-watchlist/WatchlistButton']);
  });

  it('show the stored list at once and follow another tab (a cleared storage too)', async () => {
    localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: { a1: { title: 'A' }, b: { title: 'B' } } }));
    const bus = createPageBus();
    const link = await serverRendered(renderLinkOnServer({}, serverContext()));
    const article = await serverRendered(renderButtonOnServer({ id: 'a1', title: 'A' }, serverContext()));
    await mountLink(link, {}, islandContext(bus));
    await mountButton(article, { id: 'a1', title: 'A' }, islandContext(bus));
    expect(badge(link).textContent).toBe('2');
    expect(button(article).getAttribute('aria-pressed')).toBe('true');

    localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: { b: { title: 'B' } } }));
    window.dispatchEvent(new StorageEvent('storage', { key: WATCHLIST_STORAGE_KEY }));
    expect(badge(link).textContent).toBe('1');
    expect(button(article).getAttribute('aria-pressed')).toBe('false');

    // Another key changed: nothing to do.
    localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: {} }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'something-else' }));
    expect(badge(link).textContent).toBe('1');
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(badge(link).textContent).toBe('0');
  });

  it('say so when storage refuses the change, and clear it after a change that worked', async () => {
    const bus = createPageBus();
    const emitted = vi.fn();
    bus.on('watchlist-updated', emitted);
    const article = await serverRendered(renderButtonOnServer({ id: 'a1', title: 'A' }, serverContext()));
    await mountButton(article, { id: 'a1', title: 'A' }, islandContext(bus));
    const status = article.querySelector('[role="status"]')!;
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    button(article).click();
    expect(status.textContent).toBe(config.i18n.watchlistStorageFailed);
    expect(button(article).getAttribute('aria-pressed')).toBe('false');
    expect(emitted).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith('[mf-watchlist] the watchlist could not be saved', expect.any(Error));
    setItem.mockRestore();
    button(article).click();
    expect(status.textContent).toBe('');
    expect(button(article).getAttribute('aria-pressed')).toBe('true');
  });

  it('unmount removes every listener and disables the button again', async () => {
    const bus = createPageBus();
    const link = await serverRendered(renderLinkOnServer({}, serverContext()));
    const article = await serverRendered(renderButtonOnServer({ id: 'a1', title: 'A' }, serverContext()));
    const unmountLink = await mountLink(link, {}, islandContext(bus));
    const unmountButton = await mountButton(article, { id: 'a1', title: 'A' }, islandContext(bus));
    const added = vi.fn();
    bus.on('watchlist-added', added);
    unmountLink();
    unmountButton();
    expect(button(article).disabled).toBe(true);
    // A click that still reached it (the disabled attribute removed by hand) does nothing.
    button(article).disabled = false;
    button(article).click();
    expect(added).not.toHaveBeenCalled();
    expect(localStorage.getItem(WATCHLIST_STORAGE_KEY)).toBeNull();
    bus.emit('watchlist-updated', { watchlist: { articles: { x: { title: 'X' } } }, count: 1 });
    localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: { x: { title: 'X' } } }));
    window.dispatchEvent(new StorageEvent('storage', { key: WATCHLIST_STORAGE_KEY }));
    expect(badge(link).textContent).toBe('0');
    expect(button(article).getAttribute('aria-pressed')).toBe('false');
  });

  it('reject props without a string id and title', () => {
    const element = document.createElement('div');
    expect(() => mountButton(element, { id: 1 } as never, islandContext(createPageBus()))).toThrow(TypeError);
  });

  it('build the components\' markup where there is none to bind (a failed server render, the standalone page), and put the placeholder back on unmount', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const bus = createPageBus();
    // The shell's placeholder after a failed server render: no hydration, a plain link.
    const link = document.createElement('div');
    link.innerHTML = '<a href="/watchlist">Watchlist</a>';
    document.body.append(link);
    const unmountLink = await mountLink(link, {}, islandContext(bus, false));
    expect(badge(link).textContent).toBe('0');
    expect(link.querySelector('a')!.getAttribute('href')).toBe(config.calls.watchlistPage);
    // Hydration announced, but the markup is not the component's (another build): warned, built.
    const article = document.createElement('div');
    article.innerHTML = '<p>something else</p>';
    document.body.append(article);
    const unmountButton = await mountButton(article, { id: 'a1', title: 'A' }, islandContext(bus));
    expect(warn).toHaveBeenCalledWith('[mf-watchlist/WatchlistButton] server HTML did not match; the island was rendered in the browser instead');
    expect(button(article).disabled).toBe(false);
    button(article).click();
    expect(badge(link).textContent).toBe('1');
    expect(button(article).getAttribute('aria-pressed')).toBe('true');
    unmountLink();
    unmountButton();
    expect(link.innerHTML).toBe('<a href="/watchlist">Watchlist</a>');
    expect(article.innerHTML).toBe('<p>something else</p>');
  });
});
