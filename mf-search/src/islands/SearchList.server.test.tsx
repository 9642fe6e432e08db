import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REFUSED_SEARCH_TEXT } from '../config/refusedSearches.js';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { isSearchListServerState } from './searchListServerState.js';
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

// What these tests count is which requests a render makes, not the server renders' 2 s deadline:
// on a busy machine (load 20) a search outlived it and was sent again (7 requests where 3 were
// expected). So here the deadline is one the machine's speed cannot reach.
vi.mock('./serverSearchTransport.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./serverSearchTransport.js')>();
  return { ...actual, serverSearchTransport: { ...actual.serverSearchTransport, connectionTimeoutSeconds: 600 } };
});

/** A query the search server refuses (more words and characters than its limits allow: 12 words, 512 characters). */
// The embedded server answers any ordinary query now (long ones too); this one is set to refuse
// queries over 200 characters, as another server may refuse a visitor's input.
const REFUSED_QUERY_LENGTH = 200;
const REFUSED_QUERY = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

let server: SeededSearchServer;
beforeAll(async () => {
  server = await startSeededSearchServer({ limits: { maxQueryLength: REFUSED_QUERY_LENGTH } });
}, 30_000);
afterAll(async () => server?.close());
afterEach(() => vi.restoreAllMocks());

function renderFor(query: string, page?: number) {
  const url = `http://shell.test/search?q=${encodeURIComponent(query)}${page ? `&page=${page}` : ''}`;
  return render({}, { config: server.pageConfig(), url, signal: new AbortController().signal } as never);
}

/** The listed articles' ids, in list order. */
function listedIds(html: string): string[] {
  return [...html.matchAll(/class="khs-search-teaser" data-object-id="([^"]+)"/g)].map((match) => match[1]!);
}

/** InstantSearch's answer to the rendered search (the address's page). */
function listAnswer(state: unknown): { nbHits: number; hits: { id: string }[] } {
  const answers = (state as { serverState: { initialResults: Record<string, { results: { nbHits: number; hits: { id: string }[] }[] }> } }).serverState.initialResults;
  return Object.values(answers)[0]!.results[0]!;
}

/** The number of hits the engine found for the rendered search. */
function foundHits(state: unknown): number {
  return listAnswer(state).nbHits;
}

/** The ids of the rendered page's own answer. */
function lastAnswerIds(state: unknown): string[] {
  return listAnswer(state).hits.map((hit) => hit.id);
}

/**
 * Each render here gets a new page config, so a new search client: its first search reads the
 * index version first (`config/indexVersion.ts`; one request with one search, then at most once a second).
 */
const VERSION_READ = 1;

/** Renders and counts what went to the search server for it. */
async function renderCounting(query: string, page?: number) {
  const before = server.stats();
  const statesBefore = serverStates.count;
  const result = await renderFor(query, page);
  const after = server.stats();
  return { result, requests: after.requests - before.requests, searches: after.searches - before.searches, serverStates: serverStates.count - statesBefore };
}

describe('the search list rendered on the server', () => {
  it('renders a refused query (visitor input) as the list with a clear message, logging nothing', async () => {
    const errors = vi.spyOn(console, 'error');
    const warnings = vi.spyOn(console, 'warn');
    const result = await renderFor(REFUSED_QUERY);
    expect(result.html).toContain('class="khs-search-list"');
    expect(result.html).toContain('data-refused="true"');
    expect(result.html).toContain(REFUSED_SEARCH_TEXT);
    expect(result.html).not.toContain('khs-search-teaser');
    expect(isSearchListServerState(result.state)).toBe(true);
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
  });

  it('still renders hits for an ordinary query', async () => {
    const result = await renderFor('negotiation');
    expect(result.html).toContain('khs-search-teaser');
    expect(result.html).not.toContain(REFUSED_SEARCH_TEXT);
  });

  it("renders the banner a curation rule sends (the \"kpi\" rule's metadata) above its hits, and none where no rule sends one", async () => {
    const curated = await renderFor('kpi');
    const banner = /<div class="khs-search-banner" data-curation-banner="">(.*?)<\/div>/.exec(curated.html);
    expect(banner?.[1]).toBe(
      '<p class="khs-search-banner__title"><a href="/articles/kpis-that-matter">Measuring what matters</a></p>' +
        '<p class="khs-search-banner__text">Start with our guide to KPIs that help a team instead of misleading it.</p>',
    );
    expect(curated.html.indexOf('khs-search-banner')).toBeLessThan(curated.html.indexOf('khs-search-teaser'));
    const plain = await renderFor('negotiation');
    expect(plain.html).toContain('khs-search-teaser');
    expect(plain.html).not.toContain('khs-search-banner');
  });

  it('a real failure (wrong key) rejects with one line, no stack', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const config = server.pageConfig();
    config.search.server.apiKey = 'not-a-key';
    const failure = await render({}, { config, url: 'http://shell.test/search?q=other', signal: new AbortController().signal } as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^search failed \(401\)/);
    for (const call of errors.mock.calls) expect(String((call[0] as Error)?.stack ?? call[0])).not.toMatch(/\n\s+at /);
  });

  it('renders ?page=3 with one getServerState and one request for its three pages, listing them in order', async () => {
    const pageThree = await renderCounting('the', 3);
    // The list's searches (pages 1–3 in one multi_search) and the empty box's suggestion tags.
    expect(pageThree.serverStates).toBe(1);
    expect(pageThree.requests).toBe(2 + VERSION_READ);
    expect(pageThree.searches).toBe(4 + VERSION_READ);
    // The list shows the three pages of that one answer, in page order, positioned 1…60 as the
    // browser's list would position them; the browser starts from the same pages.
    const state = pageThree.result.state as { hitsCache: { hits: Record<number, { id: string; __position: number }[]> } };
    expect(Object.keys(state.hitsCache.hits)).toEqual(['0', '1', '2']);
    const cached = Object.values(state.hitsCache.hits).flat();
    expect(cached.map((hit) => hit.__position)).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
    expect(listedIds(pageThree.result.html)).toEqual(cached.map((hit) => hit.id));
    expect(cached.slice(40).map((hit) => hit.id)).toEqual(lastAnswerIds(pageThree.result.state));
  });

  it('renders a first page with one getServerState and one list search', async () => {
    const first = await renderCounting('team');
    expect(first.serverStates).toBe(1);
    expect(first.requests).toBe(2 + VERSION_READ);
    expect(first.searches).toBe(2 + VERSION_READ);
    expect((first.result.state as { hitsCache: unknown }).hitsCache).toBeNull();
  });

  it('caps the pages of one render at MAX_SERVER_PAGES, still in one request', async () => {
    const far = await renderCounting('the', 40);
    expect(far.serverStates).toBe(1);
    expect(far.requests).toBe(2 + VERSION_READ);
    expect(far.searches).toBe(MAX_SERVER_PAGES + 1 + VERSION_READ);
    const found = foundHits(far.result.state);
    expect(found).toBeGreaterThan((MAX_SERVER_PAGES - 2) * 20);
    expect(listedIds(far.result.html)).toHaveLength(Math.min(found, MAX_SERVER_PAGES * 20));
  });
});
