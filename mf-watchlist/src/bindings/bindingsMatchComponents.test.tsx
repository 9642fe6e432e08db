// @vitest-environment jsdom
// The islands' browser code binds the React components' server markup without React (and builds
// the same markup where an element holds none). These tests hold them to the same markup: for each
// state, the DOM the binding produced (from the server render of another state, or from markup it
// built itself) must equal what React renders for that state in the browser.
import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPageBus, examplePageConfig, WATCHLIST_STORAGE_KEY, type IslandContext, type PageBus } from 'contracts';
import { WatchlistButton } from '../components/WatchlistButton.js';
import { WatchlistLink } from '../components/WatchlistLink.js';
import mountButton from '../islands/WatchlistButton.js';
import mountLink from '../islands/WatchlistLink.js';
import { render as renderButtonOnServer } from '../islands/WatchlistButton.server.js';
import { render as renderLinkOnServer } from '../islands/WatchlistLink.server.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const config = examplePageConfig();
const ARTICLE = { id: 'a1', title: 'Feedback' };

/** A structural serialisation: tag, attributes sorted by name, text; comments and empty text left out. */
function structure(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ? JSON.stringify(node.textContent) : '';
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const element = node as Element;
  const attributes = [...element.attributes]
    .map((attribute) => `${attribute.name}=${JSON.stringify(attribute.value)}`)
    .sort()
    .join(' ');
  const children = [...element.childNodes].map(structure).filter(Boolean).join('');
  return `<${element.tagName.toLowerCase()}${attributes ? ` ${attributes}` : ''}>${children}</${element.tagName.toLowerCase()}>`;
}

function storeArticles(ids: string[]): void {
  localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: Object.fromEntries(ids.map((id) => [id, { title: id }])) }));
}

/** Another tab changed the list (the browser fires `storage` in this one). */
function otherTabStores(ids: string[]): void {
  storeArticles(ids);
  window.dispatchEvent(new StorageEvent('storage', { key: WATCHLIST_STORAGE_KEY }));
}

/** Runs `fn` while local storage refuses every write. */
function withFullStorage(fn: () => void): void {
  const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
    throw new DOMException('full', 'QuotaExceededError');
  });
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    fn();
  } finally {
    setItem.mockRestore();
    error.mockRestore();
  }
}

function context(bus: PageBus, hydrated: boolean): IslandContext {
  return { bus, config, getConsent: () => ({ insights: false, tracking: false }), ...(hydrated ? { hydration: { state: null } } : {}) };
}

/** Where the binding starts: the island's server render (hydrated), or an empty element (no server render). */
const STARTS = [
  { name: 'from the server render', hydrated: true },
  { name: 'from markup it built', hydrated: false },
] as const;

/** The element as the shell's page holds it: the island's server render, or nothing (its render failed). */
async function islandElement(render: () => Promise<{ html: string }>, hydrated: boolean): Promise<HTMLElement> {
  const element = document.createElement('div');
  if (hydrated) element.innerHTML = (await render()).html;
  document.body.append(element);
  return element;
}

/** What React renders in the browser for the stored list (after its effects), plus `then`. */
async function reactRendered(node: ReactNode, then: (element: HTMLElement) => void = () => {}): Promise<string> {
  const element = document.createElement('div');
  document.body.append(element);
  const root = createRoot(element);
  await act(async () => root.render(node));
  await act(async () => then(element));
  const result = structure(element);
  await act(async () => root.unmount());
  element.remove();
  return result;
}

describe('the DOM bindings render what the React components render', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });

  const buttonLabels = { addLabel: config.i18n.watchlistAdd, removeLabel: config.i18n.watchlistRemove, failureLabel: config.i18n.watchlistStorageFailed };
  const cases = [
    { name: 'not saved', saved: false, failed: false },
    { name: 'saved', saved: true, failed: false },
    { name: 'not saved, storage refused the change', saved: false, failed: true },
    { name: 'saved, storage refused the change', saved: true, failed: true },
  ];

  for (const state of cases) {
    for (const start of STARTS) {
      it(`WatchlistButton: ${state.name} (${start.name})`, async () => {
        // React, in the browser, for that state.
        storeArticles(state.saved ? [ARTICLE.id] : []);
        const bus = createPageBus();
        const expected = await reactRendered(<WatchlistButton {...ARTICLE} bus={bus} {...buttonLabels} />, (element) => {
          if (state.failed) withFullStorage(() => element.querySelector('button')!.click());
        });

        // The binding, with the opposite stored state first.
        localStorage.clear();
        storeArticles(state.saved ? [] : [ARTICLE.id]);
        const element = await islandElement(() => renderButtonOnServer(ARTICLE, { config, url: '/', signal: new AbortController().signal }), start.hydrated);
        const unmount = await mountButton(element, ARTICLE, context(createPageBus(), start.hydrated));
        otherTabStores(state.saved ? [ARTICLE.id] : []);
        if (state.failed) withFullStorage(() => element.querySelector('button')!.click());
        expect(structure(element)).toBe(expected);
        unmount();
      });
    }
  }

  for (const [from, to] of [
    [0, 0],
    [0, 1],
    [2, 3],
    [3, 0],
  ] as const) {
    for (const start of STARTS) {
      it(`WatchlistLink: ${to} saved (bound with ${from}, ${start.name})`, async () => {
        const ids = (count: number) => Array.from({ length: count }, (_, index) => `a${index}`);
        storeArticles(ids(to));
        const expected = await reactRendered(<WatchlistLink bus={createPageBus()} href={config.calls.watchlistPage} label={config.i18n.watchlistLink} />);

        localStorage.clear();
        storeArticles(ids(from));
        const element = await islandElement(() => renderLinkOnServer({}, { config, url: '/', signal: new AbortController().signal }), start.hydrated);
        const unmount = await mountLink(element, {}, context(createPageBus(), start.hydrated));
        otherTabStores(ids(to));
        expect(structure(element)).toBe(expected);
        unmount();
      });
    }
  }

  it('a server render differs from the state it stands for only where the browser knows more (count, enabled)', async () => {
    // Guards the comparison itself: the server's button is disabled until bound, so equal
    // serialisations above mean the binding really enabled it.
    const element = await islandElement(() => renderButtonOnServer(ARTICLE, { config, url: '/', signal: new AbortController().signal }), true);
    const expected = await reactRendered(<WatchlistButton {...ARTICLE} bus={createPageBus()} {...buttonLabels} />);
    expect(structure(element)).not.toBe(expected);
    expect(structure(element).replace(' disabled=""', '')).toBe(expected);
  });
});
