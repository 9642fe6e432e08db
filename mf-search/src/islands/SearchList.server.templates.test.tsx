import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { MAX_SERVER_PAGES, render } from './SearchList.server.js';

// Counts the server states the render asks InstantSearch for (the real function runs).
const serverStates = vi.hoisted(() => ({ count: 0 }));
vi.mock('react-instantsearch', async (importOriginal) => {
  const actual = await importOriginal<typeof import('react-instantsearch')>();
  return {
    ...actual,
    getServerState: (...args: Parameters<typeof actual.getServerState>) => {
      serverStates.count += 1;
      return actual.getServerState(...args);
    },
  };
});

// Keeps each setup's template store, so a test can forget the templates and render the same
// address through getServerState again, with the same client (its cached answers: the search
// server ranks by behaviour, so two searches may order ties differently).
const templateStores = vi.hoisted(() => [] as Array<{ clear(): void }>);
vi.mock('./listSearchTemplates.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./listSearchTemplates.js')>();
  return {
    ...actual,
    createListSearchTemplates: (maxEntries: number) => {
      const store = actual.createListSearchTemplates(maxEntries);
      templateStores.push(store);
      return store;
    },
  };
});

let server: SeededSearchServer;
beforeAll(async () => {
  server = await startSeededSearchServer();
}, 30_000);
afterAll(async () => server?.close());

// Identical renders are shared by address (in this module, across configs): each render here gets
// an address of its own, with a parameter the list does not read.
let renders = 0;
const renderAt = (config: ReturnType<SeededSearchServer['pageConfig']>, search: string, props: object = {}) => {
  const url = new URL(`http://shell.test/search${search}`);
  url.searchParams.append('render', String((renders += 1)));
  return render(props, { config, url: url.href, signal: new AbortController().signal } as never);
};

/** The index version read at most once a second (`config/indexVersion.ts`). */
const VERSION_READ = 1;

const q = (query: string) => `?q=${encodeURIComponent(query)}`;

describe('a list render of a search shape seen before (one render, no getServerState)', () => {
  it.each<[string, string, string, object?]>([
    ['a first page', q('team'), q('meeting')],
    ['?page=3 (its earlier pages in the same request)', `${q('the')}&page=3`, `${q('team')}&page=3`],
    ['a refined search', `${q('team')}&topic=Leadership`, `${q('work')}&topic=Leadership`],
    ['markup and JSON characters, letters beyond Latin-1', q('über "quotes" & <b> “x” 東京'), q('team')],
    ['a query the routing cuts', q('word '.repeat(200)), q('team')],
    ['a query with no hits', q('zzqxv'), q('team')],
    ['no query', '', '?other=1'],
    ['a query the routing does not read (an array)', '?q[]=team', ''],
    ['the props of the island', q('team'), q('meeting'), { hideResults: true, chips: { topic: false } }],
  ])('%s: the same markup and state as the two-pass render, from the same answers', async (_name, search, primer, props: object = {}) => {
    const config = server.pageConfig();
    await renderAt(config, primer, props);
    const statesBefore = serverStates.count;
    const searchesBefore = server.stats().searches;
    const once = await renderAt(config, search, props);
    expect(serverStates.count - statesBefore).toBe(0);
    // The list's search (its pages in one request), the empty box's suggestion tags, an index version read.
    expect(server.stats().searches - searchesBefore).toBeLessThanOrEqual(MAX_SERVER_PAGES + 2);

    templateStores.at(-1)!.clear();
    const searchesBeforeTwoPass = server.stats().searches;
    const twoPass = await renderAt(config, search, props);
    expect(serverStates.count - statesBefore).toBe(1);
    // getServerState's requests were the ones sent before: the client answered them from its cache.
    expect(server.stats().searches - searchesBeforeTwoPass).toBeLessThanOrEqual(VERSION_READ);
    expect(once.html).toBe(twoPass.html);
    expect(JSON.stringify(once.state)).toBe(JSON.stringify(twoPass.state));
  });

  it('a new shape (another refinement, page or props) still runs getServerState once', async () => {
    const config = server.pageConfig();
    const before = serverStates.count;
    await renderAt(config, q('team'));
    await renderAt(config, `${q('team')}&page=2`);
    await renderAt(config, `${q('team')}&topic=Leadership`);
    await renderAt(config, q('team'), { hideResults: true });
    expect(serverStates.count - before).toBe(4);
    await renderAt(config, q('meeting'));
    await renderAt(config, `${q('meeting')}&page=2`);
    expect(serverStates.count - before).toBe(4);
  });
});
