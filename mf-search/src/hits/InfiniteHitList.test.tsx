// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Configure, InstantSearch } from 'react-instantsearch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSearchClient } from '../config/createSearchClient.js';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { HitListEnvironmentContext } from './hitListEnvironment.js';
import { InfiniteHitList } from './InfiniteHitList.js';
import { createMemoryHitsCache } from './memoryHitsCache.js';

let server: SeededSearchServer;
beforeAll(async () => {
  server = await startSeededSearchServer();
}, 30_000);
afterAll(async () => server?.close());
afterEach(cleanup);

const LOAD_MORE = 'Load more';
const teasers = () => document.querySelectorAll('.khs-search-teaser').length;

/** The list on the seeded server, `busy` as its screen would say it (a search on its way). */
function renderList() {
  const setup = createSearchClient(server.pageConfig().search);
  // The pages the list asked for, by query.
  const asked: { query: string; page: number }[] = [];
  const search = setup.searchClient.search.bind(setup.searchClient);
  setup.searchClient.search = ((requests: { params?: { query?: string; page?: number } }[]) => {
    for (const request of requests) asked.push({ query: request.params?.query ?? '', page: request.params?.page ?? 0 });
    return search(requests as never);
  }) as typeof setup.searchClient.search;
  const environment = { createCache: createMemoryHitsCache };
  const list = (props: { busy: boolean; query: string }) => (
    <InstantSearch searchClient={setup.searchClient} indexName={setup.indexName}>
      <Configure hitsPerPage={setup.hitsPerPage} query={props.query} />
      <HitListEnvironmentContext.Provider value={environment}>
        <InfiniteHitList viewingLabel="{count} of {total}" loadMoreLabel={LOAD_MORE} busy={props.busy} />
      </HitListEnvironmentContext.Provider>
    </InstantSearch>
  );
  const view = render(list({ busy: false, query: '' }));
  return { asked, rerender: (props: { busy: boolean; query: string }) => view.rerender(list(props)) };
}

describe('InfiniteHitList: a load-more click while a search is on its way', () => {
  it('is kept and loads the next page once that search answered (the click is never lost)', async () => {
    const { rerender } = renderList();
    await waitFor(() => expect(teasers()).toBe(20));
    // A search the visitor did not ask for is on its way (the insights client arriving searches again).
    rerender({ busy: true, query: '' });
    fireEvent.click(screen.getByRole('button', { name: LOAD_MORE }));
    expect(screen.getByRole('button', { name: LOAD_MORE })).toHaveProperty('disabled', true);
    expect(teasers()).toBe(20);
    rerender({ busy: false, query: '' });
    await waitFor(() => expect(teasers()).toBe(40));
  });

  it('is dropped when the search changed meanwhile (a new query): the list it was made on is gone', async () => {
    const { asked, rerender } = renderList();
    await waitFor(() => expect(teasers()).toBe(20));
    rerender({ busy: true, query: '' });
    fireEvent.click(screen.getByRole('button', { name: LOAD_MORE }));
    rerender({ busy: true, query: 'team' });
    await waitFor(() => expect(asked).toContainEqual({ query: 'team', page: 0 }));
    rerender({ busy: false, query: 'team' });
    // Once the new query's first page is shown and the list can load more, it asked for no other page.
    await waitFor(() => expect(screen.getByRole('button', { name: LOAD_MORE })).toHaveProperty('disabled', false));
    await waitFor(() => expect(teasers()).toBe(20));
    expect(asked.filter((request) => request.page > 0)).toEqual([]);
  });
});
