// @vitest-environment jsdom
// The binding of the server-rendered list, held to the React markup it binds (as mf-watchlist's
// bindingsMatchComponents.test.tsx holds its bindings): the markup is this remote's real server
// render (`SearchList.server.tsx` on the embedded search server), and the full island that takes
// over is the real one, hydrating in jsdom.
import { waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPageBus, DEFAULT_SEARCH_INDEX_NAME, SEARCH_DEBOUNCE_MS, URL_WRITE_DELAY_MS, type IslandContext, type PageConfig, type Unmount } from 'contracts';
import { render as renderOnServer } from '../islands/SearchList.server.js';
import { createSearchListMount, handOverTypedQuery, SEARCH_LIST_STAGE_ATTRIBUTE, type FullSearchListModule } from '../islands/SearchList.js';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { QUERY_FIRED_MARK } from '../components/ListSearchBox.js';
import { bindSearchList, PENDING_HITS_ATTRIBUTE, SEARCH_LIST_MARKUP } from './bindSearchList.js';
import { FIRST_COMMIT_TIMEOUT_MS } from '@khs/react-island';
import { TYPED_AT_PROPERTY } from '../autocomplete/typedAt.js';
import { indexVersionCollection } from '../config/indexVersion.js';

let server: SeededSearchServer;
const WAIT = { timeout: 20_000 };
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  server = await startSeededSearchServer();
}, 30_000);
afterAll(async () => server?.close());

/** The island as the shell serves it: this remote's server HTML for `/search?q=…` and its state. */
/** The list server-rendered for `/search?q=<query><more>` (`more`: further parameters, e.g. `&topic=…`; default none), in the document. */
async function serverRenderedIsland(query: string, more = ''): Promise<{ element: HTMLElement; context: IslandContext; config: PageConfig }> {
  const config = server.pageConfig();
  const path = `/search?q=${encodeURIComponent(query)}${more}`;
  // The address first: in jsdom the server render sees a window too.
  window.history.replaceState(null, '', path);
  const { html, state } = await renderOnServer({}, { config, url: new URL(path, window.location.href).href, signal: new AbortController().signal });
  // And again once it is rendered: in clean-clone runs on a busy machine the window held another
  // address at the mount, and the mount reloaded (an earlier test's `?q=team&topic=Leadership` in
  // run s6-G; in run s7-2 the reload of the test with a held load more), written while the server
  // render was awaited by an InstantSearch instance of an earlier test in this jsdom window (not
  // identified). A browser page has one list in its window.
  window.history.replaceState(null, '', path);
  const element = document.createElement('div');
  element.innerHTML = html;
  document.body.append(element);
  // As the page carries it (JSON in the markup): each island gets its own copy, never the render cache's object.
  const context: IslandContext = { bus: createPageBus(), config, getConsent: () => ({ insights: false, tracking: false }), hydration: { state: JSON.parse(JSON.stringify(state)) } };
  return { element, context, config };
}

const teasers = (element: HTMLElement) => element.querySelectorAll('.khs-search-teaser');
const click = (target: Element) => {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
  target.dispatchEvent(event);
  return event;
};

/** The real full island, counted. */
function countedFullIsland() {
  const loads = vi.fn(async (): Promise<FullSearchListModule> => import('../islands/fullSearchList.js'));
  return { loads, mount: createSearchListMount(loads) };
}

describe('the search list binding on the server markup', () => {
  let unmount: Unmount | undefined;
  afterEach(() => {
    unmount?.();
    unmount = undefined;
    document.body.innerHTML = '';
    sessionStorage.clear();
    vi.restoreAllMocks();
  });

  it('the first search for typed text is sent by the binding when the debounce ends, before the full island is there, and the full island shows that answer without searching again', async () => {
    const { element, context } = await serverRenderedIsland('team');
    const realFetch = globalThis.fetch;
    const early: Array<{ url: string; queries: string[] }> = [];
    // The early answer, marked: its first hit's headline shows it is what the hydrated list painted.
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const response = await realFetch(input, init);
      if (!String(input).includes('/multi_search')) return response;
      early.push({ url: String(input), queries: (JSON.parse(String(init!.body)) as { searches: Array<{ q: string }> }).searches.map((search) => search.q) });
      const answer = (await response.json()) as { results: Array<{ hits: Array<{ document: Record<string, unknown>; highlight?: Record<string, unknown> }> }> };
      const [first] = answer.results[0]!.hits;
      first!.document.headline = 'Early answer';
      delete first!.highlight?.headline;
      return new Response(JSON.stringify(answer), { status: response.status, headers: { 'content-type': 'application/json' } });
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const loads = vi.fn(async (): Promise<FullSearchListModule> => {
      await gate;
      return import('../islands/fullSearchList.js');
    });
    unmount = await createSearchListMount(loads)(element, {}, context);
    const input = element.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input)!;
    input.focus();
    input.value = 'leadership';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    expect(early).toEqual([]);
    // The debounce ends while the full island is still held back: the binding searches.
    await waitFor(() => expect(early).toHaveLength(1), WAIT);
    expect(early[0]!.queries.length).toBeGreaterThan(0);
    expect(new Set(early[0]!.queries)).toEqual(new Set(['leadership']));
    expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('loading');

    release();
    await waitFor(() => expect(element.querySelector('.khs-search-list')!.getAttribute('data-query')).toBe('leadership'), WAIT);
    await waitFor(() => expect(element.querySelector('.khs-search-teaser__headline')!.textContent).toBe('Early answer'), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(early).toHaveLength(1);
    expect(element.querySelector('.khs-search-teaser__headline')!.textContent).toBe('Early answer');
  });

  it("finds every element it binds in the server render: the box, the hits in order, load more and its progress", async () => {
    const { element } = await serverRenderedIsland('team');
    const binding = bindSearchList(element, { hitsPerPage: 20, onInteraction: () => {}, onHitOpened: () => {} });
    expect(binding).not.toBeNull();
    expect(binding!.input.value).toBe('team');
    const ids = [...teasers(element)].map((teaser) => teaser.getAttribute('data-object-id'));
    expect(ids).toHaveLength(20);
    expect(binding!.hitIds()).toEqual(ids);
    expect(element.querySelector(SEARCH_LIST_MARKUP.loadMore)!.getAttribute('href')).toBe('/search?q=team&page=2');
    expect(Number(element.querySelector<HTMLProgressElement>(SEARCH_LIST_MARKUP.progress)!.max)).toBeGreaterThan(40);
    binding!.release();
  });

  it('a tap on the box starts the full island before its focus and before any key', async () => {
    const { element } = await serverRenderedIsland('team');
    const started = vi.fn();
    const binding = bindSearchList(element, { hitsPerPage: 20, onInteraction: started, onHitOpened: () => {} })!;
    binding.input.dispatchEvent(new Event('touchstart', { bubbles: true }));
    expect(started).toHaveBeenCalledWith('typing');
    started.mockClear();
    binding.input.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(started).toHaveBeenCalledWith('typing');
    binding.release();
    started.mockClear();
    binding.input.dispatchEvent(new Event('touchstart', { bubbles: true }));
    expect(started).not.toHaveBeenCalled();
  });

  it('while shielded, typing in the box reaches no listener below the island element (hydrating React), and the text is still recorded', async () => {
    const { element } = await serverRenderedIsland('team');
    const binding = bindSearchList(element, { hitsPerPage: 20, onInteraction: () => {}, onHitOpened: () => {} })!;
    const below: string[] = [];
    // (`textInput`: Chromium's legacy text event, which React listens to for `onBeforeInput`.)
    for (const type of ['keydown', 'textInput', 'keyup', 'input']) binding.input.addEventListener(type, (event) => below.push(event.type));
    const type = (value: string) => {
      binding.input.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, key: 'x' }));
      binding.input.dispatchEvent(new Event('textInput', { bubbles: true }));
      binding.input.value = value;
      binding.input.dispatchEvent(new Event('input', { bubbles: true }));
      binding.input.dispatchEvent(new KeyboardEvent('keyup', { bubbles: true, key: 'x' }));
    };
    type('teams');
    expect(below).toEqual(['keydown', 'textInput', 'input', 'keyup']);
    binding.shieldTyping();
    type('teamsx');
    expect(below).toHaveLength(4);
    expect(binding.typed()?.value).toBe('teamsx');
    binding.release();
    type('teamsxy');
    expect(below).toHaveLength(8);
  });

  it('markup that is not the list (the shell placeholder) is not bound', () => {
    const element = document.createElement('div');
    element.innerHTML = '<form role="search" action="/search"><input name="q"></form>';
    expect(bindSearchList(element, { hitsPerPage: 20, onInteraction: () => {}, onHitOpened: () => {} })).toBeNull();
  });

  it('reports a hit opened with its position in the list, and lets the link navigate', async () => {
    const { element } = await serverRenderedIsland('team');
    const opened = vi.fn();
    const started = vi.fn();
    const binding = bindSearchList(element, { hitsPerPage: 20, onInteraction: started, onHitOpened: opened })!;
    const third = teasers(element)[2]!;
    const event = click(third.querySelector('a')!);
    expect(event.defaultPrevented).toBe(false);
    expect(opened).toHaveBeenCalledWith(third.getAttribute('data-object-id'), 3);
    expect(started).not.toHaveBeenCalled();
    binding.release();
  });

  it('binds at once and loads nothing more; load more followed then is held, keeps room for the coming page, and the full island shows it in place', async () => {
    const { element, context } = await serverRenderedIsland('team');
    const warnings = vi.spyOn(console, 'warn');
    const { loads, mount } = countedFullIsland();
    unmount = await mount(element, {}, context);
    expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('bound');
    expect(loads).not.toHaveBeenCalled();

    const link = element.querySelector(SEARCH_LIST_MARKUP.loadMore)!;
    expect(click(link).defaultPrevented).toBe(true);
    const hits = element.querySelector(SEARCH_LIST_MARKUP.hits)!;
    expect(hits.getAttribute(PENDING_HITS_ATTRIBUTE)).toBe('20');
    expect(element.getAttribute('aria-busy')).toBe('true');
    // A second click while it loads is the same request.
    click(link);
    await waitFor(() => expect(loads).toHaveBeenCalledTimes(1));

    await waitFor(() => expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('interactive'), WAIT);
    await waitFor(() => expect(teasers(element)).toHaveLength(40), WAIT);
    expect(hits.hasAttribute(PENDING_HITS_ATTRIBUTE)).toBe(false);
    expect(element.querySelectorAll('.khs-search-hits__placeholder')).toHaveLength(0);
    expect(element.hasAttribute('aria-busy')).toBe(false);
    // Hydrated, not re-rendered: React took the server markup as it was (with the binding's marks).
    expect(warnings.mock.calls.filter((call) => String(call[0]).includes('did not match'))).toEqual([]);
  });

  it('text typed before the full island is there stays, and is what the full island searches', async () => {
    const { element, context } = await serverRenderedIsland('team');
    const { loads, mount } = countedFullIsland();
    unmount = await mount(element, {}, context);
    const input = element.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input)!;
    input.focus();
    // Focus alone starts the full island (it loads and hydrates while the visitor types).
    await Promise.resolve();
    expect(loads).toHaveBeenCalledTimes(1);
    input.value = 'leadership';
    input.dispatchEvent(new Event('input', { bubbles: true }));

    await waitFor(() => expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('interactive'), WAIT);
    expect(input.value).toBe('leadership');
    await waitFor(() => expect(element.querySelector('.khs-search-list')!.getAttribute('data-query')).toBe('leadership'), WAIT);
    expect(document.activeElement).toBe(input);
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('text typed and submitted while the full island hydrates slower than the mount bound (a loaded device) still reaches the hydrated box and is searched', async () => {
    const { element, context } = await serverRenderedIsland('team');
    // The mount's own bound (FIRST_COMMIT_TIMEOUT_MS, set in mountReactIsland) has passed already
    // when it is set: React has hydrated nothing yet. Every other timer keeps its time.
    const realSetTimeout = window.setTimeout;
    vi.spyOn(window, 'setTimeout').mockImplementation(((callback: () => void, delay?: number, ...rest: unknown[]) => {
      if (delay !== FIRST_COMMIT_TIMEOUT_MS || !new Error().stack?.includes('mountReactIsland')) return realSetTimeout(callback, delay, ...rest);
      callback();
      return 0;
    }) as typeof window.setTimeout);
    const { mount } = countedFullIsland();
    unmount = await mount(element, {}, context);
    const input = element.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input)!;
    input.focus();
    input.value = 'leadership';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    element.querySelector<HTMLFormElement>(SEARCH_LIST_MARKUP.form)!.requestSubmit();

    await waitFor(() => expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('interactive'), WAIT);
    await waitFor(() => expect(element.querySelector('.khs-search-list')!.getAttribute('data-query')).toBe('leadership'), WAIT);
    expect(input.value).toBe('leadership');
    await waitFor(() => expect(window.location.search).toBe('?q=leadership'), WAIT);
  });

  it("the hand-over is not undone: right after it the box still shows the typed text (React does not put the server's query back), so the next key adds to it", async () => {
    const { element, context } = await serverRenderedIsland('team');
    const input = element.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input)!;
    // The hand-over is the input event carrying the time of the last keystroke; listening on the
    // document, this runs after React's own handling of it (which restores a controlled value).
    const afterHandOver: string[] = [];
    const onInput = (event: Event) => {
      if (TYPED_AT_PROPERTY in event) afterHandOver.push(input.value);
    };
    document.addEventListener('input', onInput);
    try {
      const { mount } = countedFullIsland();
      unmount = await mount(element, {}, context);
      input.focus();
      input.value = 'leader';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await waitFor(() => expect(afterHandOver).toHaveLength(1), WAIT);
      expect(afterHandOver).toEqual(['leader']);
      pressKey(input, 's', performance.now());
      await waitFor(() => expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('interactive'), WAIT);
      await waitFor(() => expect(element.querySelector('.khs-search-list')!.getAttribute('data-query')).toBe('leaders'), WAIT);
      expect(input.value).toBe('leaders');
    } finally {
      document.removeEventListener('input', onInput);
    }
  });

  it("opening the page with ?q= is tracked once, from the server's answer at once, not again by the full island", async () => {
    const { element, context } = await serverRenderedIsland('team');
    const submitted: Array<{ query: string; hitCount: number }> = [];
    context.bus.on('search-submitted', (event) => submitted.push(event));
    const { mount } = countedFullIsland();
    unmount = await mount(element, {}, context);
    const total = Number(element.querySelector<HTMLProgressElement>(SEARCH_LIST_MARKUP.progress)!.max);
    expect(submitted).toEqual([{ query: 'team', hitCount: total }]);
    element.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input)!.focus();
    await waitFor(() => expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('interactive'), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(submitted).toHaveLength(1);
  });

  it.each([
    [{ insights: true, tracking: true }, 1],
    [{ insights: true, tracking: false }, 0],
  ])('opening /search?q=team&topic=… with consent %j sends %i site-search record(s), with the filters of the address', async (consent, records) => {
    const { element, context } = await serverRenderedIsland('team', '&topic=Leadership');
    const beacons: Array<{ url: string; body: unknown }> = [];
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: (url: string, body: string) => beacons.push({ url, body: JSON.parse(body) }) > 0 });
    const { mount } = countedFullIsland();
    unmount = await mount(element, {}, { ...context, getConsent: () => consent });
    // The hit count the list shows: its progress bar's total, or its teasers when it has one page.
    const progress = element.querySelector<HTMLProgressElement>(SEARCH_LIST_MARKUP.progress);
    const total = progress ? Number(progress.max) : teasers(element).length;
    expect(total).toBeGreaterThan(0);
    const tracked = beacons.filter(({ url }) => url === context.config.calls.siteSearch);
    expect(tracked).toEqual(records ? [{ url: '/api/insights/searches', body: { query: 'team', hitCount: total, filters: { topic: ['Leadership'] }, page: '/search', queryID: expect.stringMatching(/^s-/) } }] : []);
    Reflect.deleteProperty(navigator, 'sendBeacon');
  });

  it('a slow page, whose address moved on before its script ran: the site-search record still carries the query and filters of the answer it counts', async () => {
    const { element, context } = await serverRenderedIsland('team', '&topic=Leadership');
    // The server answered ?q=team&topic=Leadership; by the time the (late) script runs the window shows ?q=team.
    window.history.replaceState(null, '', '/search?q=team');
    const real = window.location;
    vi.spyOn(window, 'location', 'get').mockImplementation(() => ({ ...withoutReload(real), reload: vi.fn() }) as unknown as Location);
    const beacons: Array<{ url: string; body: unknown }> = [];
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: (url: string, body: string) => beacons.push({ url, body: JSON.parse(body) }) > 0 });
    unmount = await countedFullIsland().mount(element, {}, { ...context, getConsent: () => ({ insights: false, tracking: true }) });
    const progress = element.querySelector<HTMLProgressElement>(SEARCH_LIST_MARKUP.progress);
    const total = progress ? Number(progress.max) : teasers(element).length;
    expect(beacons.filter(({ url }) => url === context.config.calls.siteSearch)).toEqual([
      { url: '/api/insights/searches', body: { query: 'team', hitCount: total, filters: { topic: ['Leadership'] }, page: '/search', queryID: expect.stringMatching(/^s-/) } },
    ]);
    Reflect.deleteProperty(navigator, 'sendBeacon');
  });

  it('back or forward that moved the address before the binding listened (the server HTML shows long before its script runs): the page reloads that entry', async () => {
    const { element, context } = await serverRenderedIsland('team');
    // The markup is the list for ?q=team; the window went forward to the filtered entry meanwhile.
    window.history.replaceState(null, '', '/search?q=team&topic=Leadership');
    const real = window.location;
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockImplementation(() => ({ ...withoutReload(real), reload }) as unknown as Location);
    unmount = await countedFullIsland().mount(element, {}, context);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('while only bound, back or forward to another list reloads it; a fragment (a skip link) or a parameter the list does not read does not', async () => {
    const { element, context } = await serverRenderedIsland('team');
    const real = window.location;
    // The address at each reload: a failure then says which move (or the mount) reloaded.
    const reloadedAt: string[] = [];
    vi.spyOn(window, 'location', 'get').mockImplementation(() => ({ ...withoutReload(real), reload: () => reloadedAt.push(real.href) }) as unknown as Location);
    unmount = await countedFullIsland().mount(element, {}, context);
    expect(reloadedAt, 'the mount, on the address the server rendered').toEqual([]);
    window.history.replaceState(null, '', '/search?q=team&utm_source=newsletter#main');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(reloadedAt).toEqual([]);
    window.history.replaceState(null, '', '/search?q=team&topic=Leadership');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(reloadedAt).toEqual([new URL('/search?q=team&topic=Leadership', real.href).href]);
  });

  it('a hydrated full island, once unmounted, writes nothing more into the address: its InstantSearch instance is disposed', async () => {
    const { element, context } = await serverRenderedIsland('team');
    const { mount } = countedFullIsland();
    const fullUnmount = await mount(element, {}, context);
    element.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input)!.focus();
    await waitFor(() => expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('interactive'), WAIT);
    const pushed = vi.spyOn(window.history, 'pushState');
    fullUnmount();
    // Past the router's write delay (a live instance whose widgets were removed pushed `/search`).
    await new Promise((resolve) => setTimeout(resolve, URL_WRITE_DELAY_MS + 200));
    expect(pushed).not.toHaveBeenCalled();
    expect(window.location.pathname + window.location.search).toBe('/search?q=team');
  });

  it("with insights consent the hydrated list searches nothing for the server's answer (the insights middleware's search at its start is answered by it), and load more still brings page 2", async () => {
    const { element, context } = await serverRenderedIsland('team');
    const consented: IslandContext = { ...context, getConsent: () => ({ insights: true, tracking: false }) };
    // The island's client searches through XMLHttpRequest (axios): its request bodies tell. A read
    // of the index version (the server's answer is reused only while it is current) is no search of the list.
    const sent: string[] = [];
    const send = XMLHttpRequest.prototype.send;
    vi.spyOn(XMLHttpRequest.prototype, 'send').mockImplementation(function (this: XMLHttpRequest, body) {
      sent.push(String(body));
      send.call(this, body);
    });
    const searches = () => sent.filter((body) => !body.includes(indexVersionCollection(DEFAULT_SEARCH_INDEX_NAME))).length;
    const before = searches();
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(null, { status: 200 }));
    const { mount } = countedFullIsland();
    unmount = await mount(element, {}, consented);
    const serverIds = [...teasers(element)].map((teaser) => teaser.getAttribute('data-object-id'));
    element.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input)!.focus();
    await waitFor(() => expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('interactive'), WAIT);
    // The insights client is loaded and plugged in (its anonymous token is in the cookie), and its
    // middleware's start has scheduled its search.
    await waitFor(() => expect(document.cookie).toContain('_ALGOLIA='), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(searches()).toBe(before);
    expect([...teasers(element)].map((teaser) => teaser.getAttribute('data-object-id'))).toEqual(serverIds);
    click(element.querySelector('.khs-search-load-more__button')!);
    await waitFor(() => expect(teasers(element)).toHaveLength(40), WAIT);
    expect(searches()).toBeGreaterThan(before);
  });

  it('a full island that fails to load leaves the list working natively: the held load more follows its link', async () => {
    const { element, context } = await serverRenderedIsland('team');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign, href: window.location.href } as Location);
    unmount = await createSearchListMount(() => Promise.reject(new Error('chunk load failed')))(element, {}, context);
    click(element.querySelector(SEARCH_LIST_MARKUP.loadMore)!);
    await waitFor(() => expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('failed'), WAIT);
    expect(assign).toHaveBeenCalledWith(expect.stringMatching(/\/search\?q=team&page=2$/));
  });
});

/** The parts of a location the list reads, as they are now (jsdom cannot reload). */
function withoutReload(location: Location): Partial<Location> {
  const { href, origin, protocol, host, hostname, port, pathname, search, hash } = location;
  return { href, origin, protocol, host, hostname, port, pathname, search, hash };
}

/** An event whose `timeStamp` is the given time (the browser sets a key's to when it was pressed). */
function stamped<E extends Event>(event: E, timeStamp: number): E {
  Object.defineProperty(event, 'timeStamp', { value: timeStamp });
  return event;
}

/**
 * One key press in the box as the browser dispatches it: keydown (stamped with the press time),
 * the text (through the prototype's setter, so a hydrated React box sees a change), input (stamped
 * with when it is dispatched: now), keyup.
 */
function pressKey(input: HTMLInputElement, key: string, pressedAt: number): void {
  input.dispatchEvent(stamped(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, key }), pressedAt));
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, input.value + key);
  input.dispatchEvent(stamped(new Event('input', { bubbles: true }), performance.now()));
  input.dispatchEvent(new KeyboardEvent('keyup', { bubbles: true, key }));
}

/** Chromium's `navigator.scheduling.isInputPending`, answering `pending()`. */
function stubInputPending(pending: () => boolean): () => void {
  Object.defineProperty(navigator, 'scheduling', { configurable: true, value: { isInputPending: pending } });
  return () => delete (navigator as { scheduling?: unknown }).scheduling;
}

// Issue 26: keys a long task held back arrive late, together, but were pressed 60 ms apart. The
// debounce counts from each key's press (`event.timeStamp` of its keydown), and a debounce whose
// time is up lets keys still waiting for dispatch in first; so no search for a prefix the visitor
// never paused on, before or after the full island takes over.
describe('the 500 ms debounce counts from the key presses, however late a long task lets them through', () => {
  let unmount: Unmount | undefined;
  let unstub: (() => void) | undefined;
  afterEach(() => {
    unmount?.();
    unmount = undefined;
    unstub?.();
    unstub = undefined;
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });

  /**
   * The list for `/search?q=team` bound, with a full island that never comes (the binding alone
   * searches), the box focused and emptied; `early` collects the queries of each search it sends.
   */
  async function boundAloneWithEmptyBox(): Promise<{ input: HTMLInputElement; early: string[][] }> {
    const { element, context } = await serverRenderedIsland('team');
    const realFetch = globalThis.fetch;
    const early: string[][] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (request, init) => {
      if (String(request).includes('/multi_search')) early.push((JSON.parse(String(init!.body)) as { searches: Array<{ q: string }> }).searches.map((search) => search.q));
      return realFetch(request, init);
    });
    unmount = await createSearchListMount(() => new Promise<FullSearchListModule>(() => {}))(element, {}, context);
    const input = element.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input)!;
    input.focus();
    input.select();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '');
    return { input, early };
  }

  it("records the time a key was pressed, not when the binding's handler ran; text with no key (a paste) has its input's time", async () => {
    const { element } = await serverRenderedIsland('team');
    const binding = bindSearchList(element, { hitsPerPage: 20, onInteraction: () => {}, onHitOpened: () => {} })!;
    const input = binding.input;
    input.dispatchEvent(stamped(new KeyboardEvent('keydown', { bubbles: true, key: 's' }), 1000));
    input.value = 'teams';
    input.dispatchEvent(stamped(new Event('input', { bubbles: true }), 1900));
    expect(binding.typed()).toMatchObject({ value: 'teams', at: 1000 });
    input.dispatchEvent(new KeyboardEvent('keyup', { bubbles: true, key: 's' }));
    input.value = 'teams pasted';
    input.dispatchEvent(stamped(new Event('input', { bubbles: true }), 2500));
    expect(binding.typed()).toMatchObject({ value: 'teams pasted', at: 2500 });
    binding.release();
  });

  it("the binding's early search: keys held back past the debounce window are seen first, then one search for the whole query", async () => {
    const { input, early } = await boundAloneWithEmptyBox();
    // "le" pressed a second ago, 60 ms apart; a long task then held "adership" (pressed 60 ms apart
    // after them) in the browser's queue: the debounce window of "e" ended meanwhile.
    const pressedAt = performance.now() - 1000;
    let queued = true;
    unstub = stubInputPending(() => queued);
    pressKey(input, 'l', pressedAt);
    pressKey(input, 'e', pressedAt + 60);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(early).toEqual([]);
    // The long task ends: the held-back keys are dispatched, each with its press time.
    [...'adership'].forEach((key, index) => pressKey(input, key, pressedAt + 120 + 60 * index));
    queued = false;
    await waitFor(() => expect(early).toHaveLength(1), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(early.map((queries) => [...new Set(queries)])).toEqual([['leadership']]);
  });

  it("held-back keys handed to the page one at a time (none pending in between, the browser waits for the page to take each): still one search for the whole query", async () => {
    const { input, early } = await boundAloneWithEmptyBox();
    unstub = stubInputPending(() => false);
    // Pressed 60 ms apart a second ago; a long task held them: each reaches the page 20 ms after the
    // last. Those 20 ms on a fake clock: a busy machine's real ones may exceed the grace. (The last
    // key's own window may end within its 20 ms: the whole query's search may go out then.)
    const pressedAt = performance.now() - 1000;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      for (const [index, key] of [...'leadership'].entries()) {
        pressKey(input, key, pressedAt + 60 * index);
        vi.advanceTimersByTime(20);
      }
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(early).toHaveLength(1), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(early.map((queries) => [...new Set(queries)])).toEqual([['leadership']]);
  });

  it('the hand-over to the full island keeps the rule: the hydrated box waits for the held-back keys and searches the whole query once', async () => {
    const { element, context } = await serverRenderedIsland('team');
    const fired: string[] = [];
    const mark = performance.mark.bind(performance);
    vi.spyOn(performance, 'mark').mockImplementation((name: string, options?: PerformanceMarkOptions) => {
      if (name === QUERY_FIRED_MARK) fired.push(String(options?.detail));
      return mark(name, options);
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    unmount = await createSearchListMount(async () => {
      await gate;
      return import('../islands/fullSearchList.js');
    })(element, {}, context);
    const input = element.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input)!;
    input.focus();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '');
    const pressedAt = performance.now() - 1000;
    let queued = true;
    unstub = stubInputPending(() => queued);
    pressKey(input, 'l', pressedAt);
    pressKey(input, 'e', pressedAt + 60);
    // The full island loads and hydrates (the long task) while "adership" waits in the browser's
    // queue; it takes "le" over more than 500 ms after its last key.
    await new Promise((resolve) => setTimeout(resolve, 600));
    release();
    await waitFor(() => expect(element.getAttribute(SEARCH_LIST_STAGE_ATTRIBUTE)).toBe('interactive'), WAIT);
    expect(fired).toEqual([]);
    [...'adership'].forEach((key, index) => pressKey(input, key, pressedAt + 120 + 60 * index));
    queued = false;
    await waitFor(() => expect(element.querySelector('.khs-search-list')!.getAttribute('data-query')).toBe('leadership'), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(fired).toEqual(['leadership']);
    expect(input.value).toBe('leadership');
  });
});

describe('handOverTypedQuery', () => {
  it("makes a controlled input's change handler see the typed text even where React's tracker holds it already", () => {
    const input = document.createElement('input');
    input.value = 'team';
    document.body.append(input);
    // React's value tracker: an own `value` property recording what React last knew.
    let tracked = 'team';
    const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!;
    Object.defineProperty(input, 'value', {
      configurable: true,
      get: () => native.get!.call(input),
      set: (value: string) => {
        tracked = value;
        native.set!.call(input, value);
      },
    });
    native.set!.call(input, 'leadership');
    tracked = 'leadership';
    const seen: string[] = [];
    input.addEventListener('input', () => {
      if (input.value !== tracked) seen.push(input.value);
    });
    handOverTypedQuery(input, 'leadership', 'team');
    expect(seen).toEqual(['leadership']);
    expect(input.value).toBe('leadership');
  });
});
