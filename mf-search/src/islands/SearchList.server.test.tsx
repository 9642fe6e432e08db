import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REFUSED_SEARCH_TEXT } from '../config/refusedSearches.js';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { isSearchListServerState } from './searchListServerState.js';
import { render } from './SearchList.server.js';

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

function renderFor(query: string) {
  const url = `http://shell.test/search?q=${encodeURIComponent(query)}`;
  return render({}, { config: server.pageConfig(), url, signal: new AbortController().signal } as never);
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
});
