// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPageBus, type IslandContext, type SiteEvents } from 'contracts';
import { createSearchClient } from '../config/createSearchClient.js';
import { REFUSED_SEARCH_TEXT } from '../config/refusedSearches.js';
import { validateFacetOptions } from '../config/facetOptions.js';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { SearchList } from './SearchList.js';

const MARKUP_ARTICLE = {
  id: 'markup-probe',
  headline: 'Markup probe <img src=x onerror="window.__pwned=1"> zebracorn',
  title: 'Markup probe',
  intro: 'An intro with <script>window.__pwned=1</script> inside, about zebracorn.',
  content: 'Plain content.',
  image: '/content-images/probe.svg',
  topic: ['Learning'],
  date: 1_763_000_000,
  url: '/articles/markup-probe',
  readingTime: 2,
  cta: 'Read the probe',
};

let server: SeededSearchServer;
const WAIT = { timeout: 5000 };
vi.setConfig({ testTimeout: 20_000 });

beforeAll(async () => {
  server = await startSeededSearchServer({ extraArticles: [MARKUP_ARTICLE], limits: { maxQueryLength: REFUSED_QUERY_LENGTH } });
}, 30_000);
afterAll(async () => server?.close());

function renderList(options: { hideResults?: boolean } = {}) {
  const config = server.pageConfig();
  const bus = createPageBus();
  const context: IslandContext = { bus, config, getConsent: () => ({ insights: false, tracking: false }) };
  const submitted: SiteEvents['search-submitted'][] = [];
  bus.on('search-submitted', (event) => submitted.push(event));
  const setup = createSearchClient(config.search);
  render(
    <SearchList setup={setup} facets={config.search.facets.map(validateFacetOptions)} context={context} routing={false} hideResults={options.hideResults ?? false} />,
  );
  return { config, submitted };
}

const searchBox = () => screen.getByRole('combobox') as HTMLInputElement;
const list = () => document.querySelector('.khs-search-list') as HTMLElement;
const teasers = () => Array.from(document.querySelectorAll('.khs-search-teaser'));
async function search(text: string) {
  fireEvent.change(searchBox(), { target: { value: text } });
  fireEvent.submit(searchBox().form!);
}

/** The test server refuses longer queries, as another server may refuse a visitor's input (the embedded one answers ordinary long queries). */
const REFUSED_QUERY_LENGTH = 200;

describe('SearchList on the embedded search server', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(cleanup);

  it('finds an article despite a typo and highlights the matched words', async () => {
    const { submitted } = renderList();
    await search('negotaiting');
    const hrefs = () => teasers().map((teaser) => teaser.querySelector('a')!.getAttribute('href'));
    await waitFor(() => {
      expect(hrefs()).toContain('/articles/negotiating-with-suppliers');
      expect(hrefs().length).toBeLessThan(10);
    }, WAIT);
    const marks = Array.from(list().querySelectorAll('mark')).map((mark) => mark.textContent!.toLowerCase());
    expect(marks.some((text) => text.startsWith('negotiat'))).toBe(true);
    await waitFor(() => expect(submitted).toEqual([{ query: 'negotaiting', hitCount: expect.any(Number) }]), WAIT);
    expect(submitted[0]!.hitCount).toBeGreaterThan(0);
  });

  it('shows markup from the index as text, never as HTML', async () => {
    renderList();
    await search('zebracorn');
    await waitFor(() => expect(teasers()).toHaveLength(1), WAIT);
    const teaser = teasers()[0]!;
    expect(teaser.querySelector('h2')!.textContent).toContain('<img src=x onerror="window.__pwned=1">');
    expect(teaser.querySelector('.khs-search-teaser__intro')!.textContent).toContain('<script>window.__pwned=1</script>');
    expect(teaser.querySelector('script, .khs-search-teaser__body img')).toBeNull();
    expect(teaser.querySelector('.khs-search-teaser__meta')!.textContent).toMatch(/^\d+ \w+ \d{4}, 2 min read$/);
    expect(teaser.querySelector('.khs-search-teaser__cta')!.textContent).toBe('Read the probe');
  });

  it('offers facets only after a query; a chip removes its filter', async () => {
    renderList();
    await waitFor(() => expect(teasers().length).toBeGreaterThan(0), WAIT);
    expect(screen.queryByRole('button', { name: 'Filter' })).toBeNull();
    await search('feedback');
    const toggle = await screen.findByRole('button', { name: 'Filter' }, WAIT);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const group = await screen.findByRole('group', { name: 'Topic' }, WAIT);
    const unfiltered = await waitFor(() => {
      const count = Number(/of (\d+)/.exec(list().textContent ?? '')?.[1] ?? teasers().length);
      expect(count).toBeGreaterThan(0);
      // The answer to "feedback" (every teaser shows its match), not the empty query's list still on screen.
      for (const teaser of teasers()) expect(teaser.textContent).toMatch(/feedback/i);
      return teasers().length;
    }, WAIT);
    const coaching = within(group).getByRole('checkbox', { name: /^Coaching/ });
    fireEvent.click(coaching);
    const chips = await screen.findByRole('list', { name: 'Applied filters' }, WAIT);
    expect(chips.textContent).toContain('Coaching');
    await waitFor(() => {
      for (const teaser of teasers()) expect(teaser.querySelector('.khs-search-teaser__tags')!.textContent).toContain('Coaching');
    }, WAIT);
    fireEvent.click(within(chips).getByRole('button', { name: 'Remove filter: Coaching' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Applied filters' })).toBeNull(), WAIT);
    await waitFor(() => expect(teasers().length).toBe(unfiltered), WAIT);
    expect((within(group).getByRole('checkbox', { name: /^Coaching/ }) as HTMLInputElement).checked).toBe(false);
  });

  it('offers no filter when the answer has no facet values (no hits)', async () => {
    renderList();
    await search('qqqxxyyzz');
    await waitFor(() => expect(list().dataset.results).toBe('no-hits'), WAIT);
    expect(screen.queryByRole('button', { name: 'Filter' })).toBeNull();
  });

  it('loads more until the last page with "viewing X of Y" and the progress bar', async () => {
    const { config } = renderList();
    const total = 63; // 62 seeded articles + the markup probe; the empty query lists them all.
    for (const loaded of [20, 40, 60]) {
      await waitFor(() => expect(teasers()).toHaveLength(loaded), WAIT);
      const viewing = config.i18n.viewing.replace('{count}', String(loaded)).replace('{total}', String(total));
      expect(list().querySelector('.khs-search-load-more__viewing')?.textContent).toBe(viewing);
      const progress = list().querySelector('progress')!;
      expect([progress.value, progress.max, progress.getAttribute('aria-label')]).toEqual([loaded, total, viewing]);
      // A real link to the next page (works without scripts); a plain click loads in place.
      const loadMore = screen.getByRole('link', { name: config.i18n.loadMore });
      expect(loadMore.getAttribute('href')).toBe(`${config.calls.searchPage}?page=${loaded / 20 + 1}`);
      fireEvent.click(loadMore);
    }
    await waitFor(() => expect(teasers()).toHaveLength(total), WAIT);
    expect(screen.queryByRole('link', { name: config.i18n.loadMore })).toBeNull();
    expect(list().querySelector('progress')).toBeNull();
  });

  it('keeps results hidden until a query exists when hide-results is on, and says when nothing matched', async () => {
    const { config } = renderList({ hideResults: true });
    await waitFor(() => expect(list().dataset.status).toBe('idle'), WAIT);
    expect(list().dataset.results).toBe('hidden');
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    await search('qqqxxyyzz');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(config.i18n.noResults), WAIT);
  });

  it('explains a search the server refused for its input (too long) instead of failing', async () => {
    const error = vi.spyOn(console, 'error');
    renderList();
    // Over the bound this test's server is given (REFUSED_QUERY_LENGTH characters).
    await search(Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(REFUSED_SEARCH_TEXT), WAIT);
    expect(list().dataset.status).not.toBe('error');
    expect(list().dataset.refused).toBe('true');
    expect(teasers()).toHaveLength(0);
    expect(error).not.toHaveBeenCalled();
    // The next ordinary search answers as before.
    await search('negotiation');
    await waitFor(() => expect(teasers().length).toBeGreaterThan(0), WAIT);
    expect(screen.getByRole('status').textContent).toBe('');
    error.mockRestore();
  });

  it("opened at /search?q= without the server's answer (a page the server left to the browser): the submission is reported once its answer came, with its hit count, never InstantSearch's empty placeholder before it", async () => {
    const config = server.pageConfig();
    const bus = createPageBus();
    const submitted: SiteEvents['search-submitted'][] = [];
    bus.on('search-submitted', (event) => submitted.push(event));
    const setup = createSearchClient(config.search);
    // The search server answers late, as on a busy machine or a slow network.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const search = setup.searchClient.search.bind(setup.searchClient);
    setup.searchClient = { ...setup.searchClient, search: (async (requests: never) => (await answered, search(requests))) as never };
    window.history.replaceState(null, '', '/search?q=leadership');
    try {
      render(<SearchList setup={setup} facets={config.search.facets.map(validateFacetOptions)} context={{ bus, config, getConsent: () => ({ insights: false, tracking: false }) }} />);
      await waitFor(() => expect(searchBox().value).toBe('leadership'), WAIT);
      await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
      expect(submitted).toEqual([]);
      answer();
      await waitFor(() => expect(teasers().length).toBeGreaterThan(0), WAIT);
      await waitFor(() => expect(submitted).toHaveLength(1), WAIT);
      expect(submitted[0]!.query).toBe('leadership');
      expect(submitted[0]!.hitCount).toBeGreaterThan(0);
    } finally {
      cleanup();
      window.history.replaceState(null, '', '/');
    }
  });

  it('sets the status to error when the search server fails, logs it and leaves the page intact', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const config = server.pageConfig();
    config.search.server.apiKey = 'wrong-key';
    const context: IslandContext = { bus: createPageBus(), config, getConsent: () => ({ insights: false, tracking: false }) };
    render(
      <>
        <p>Rest of the page</p>
        <SearchList setup={createSearchClient(config.search)} facets={[]} context={context} routing={false} />
      </>,
    );
    await waitFor(() => {
      expect(list().dataset.status).toBe('error');
      expect(error.mock.calls.some((call) => String(call[0]).includes('[mf-search] the search failed'))).toBe(true);
    }, WAIT);
    // The failure stays inside the island: the page around it and the search box remain.
    expect(document.body.textContent).toContain('Rest of the page');
    expect(searchBox().disabled).toBe(false);
    expect(screen.getByRole('status').textContent).toBe('');
    error.mockRestore();
    await act(async () => {});
  });
});
