// Search over a cluster of three embedded search servers on loopback, each seeded with the same
// collection (the embedded server does not replicate: a real Typesense cluster does that), one of
// them killed mid-test. Counts which node answered, never how fast.
import { listArticles } from '@khs/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchConfiguration, SearchNode } from 'contracts';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { serverSearchTransport } from '../islands/serverSearchTransport.js';
import { createSearchClient, type SearchTransport } from './createSearchClient.js';
import { createIndexVersionReader } from './indexVersion.js';

/** A fixed index version: the nodes count only the searches below, not the clients' version reads. */
const fixedVersion = createIndexVersionReader({ read: async () => 'fixed' });

const ARTICLE_COUNT = listArticles().length;

let first: SeededSearchServer;
let second: SeededSearchServer;
let third: SeededSearchServer;
beforeAll(async () => {
  [first, second, third] = (await Promise.all([1, 2, 3].map(() => startSeededSearchServer({ workers: 1 })))) as [SeededSearchServer, SeededSearchServer, SeededSearchServer];
}, 60_000);
afterAll(async () => {
  await Promise.allSettled([first, second, third].map((server) => server?.close()));
}, 60_000);

/** The page's search configuration with the given cluster (`host`/`port` repeat the first node, as the shell writes it). */
function clusterSearch(nodes: SearchNode[], nearestNode?: SearchNode): SearchConfiguration {
  const search = first.pageConfig().search;
  return { ...search, server: { ...search.server, ...nodes[0]!, nodes, ...(nearestNode ? { nearestNode } : {}) } };
}

let requestNumber = 0;
/**
 * `count` searches for everything, each a distinct request (another page) so the client's result
 * cache answers none of them; resolves with each answer's total.
 */
async function searchAll(search: SearchConfiguration, count: number, transport: SearchTransport = {}): Promise<number[]> {
  const setup = createSearchClient(search, { ...transport, indexVersion: fixedVersion });
  const totals: number[] = [];
  for (let i = 0; i < count; i += 1) {
    requestNumber += 1;
    const { results } = await setup.searchClient.search([
      { indexName: setup.indexName, params: { query: '', hitsPerPage: 1, page: requestNumber % 50, facets: [`topic`] } },
    ] as never);
    totals.push((results[0] as { nbHits: number }).nbHits);
  }
  return totals;
}

const searchesOf = (server: SeededSearchServer) => server.stats().searches;

describe('search over a cluster of nodes (server.nodes)', () => {
  it('spreads searches over every node and keeps answering every one of them when a node is killed', async () => {
    const search = clusterSearch([first.node(), second.node(), third.node()]);
    const before = [first, second, third].map(searchesOf);

    expect(await searchAll(search, 9)).toEqual(Array(9).fill(ARTICLE_COUNT));
    const spread = [first, second, third].map((server, i) => searchesOf(server) - before[i]!);
    expect(spread.every((count) => count > 0)).toBe(true);
    expect(spread.reduce((sum, count) => sum + count, 0)).toBe(9);

    await first.close();
    const survivorsBefore = searchesOf(second) + searchesOf(third);
    expect(await searchAll(search, 9)).toEqual(Array(9).fill(ARTICLE_COUNT));
    expect(searchesOf(second) + searchesOf(third) - survivorsBefore).toBe(9);
  });

  it('on the server (its own keep-alive agents) retries the next node when one dies between requests', async () => {
    // `first` is down already; `second` dies after the first searches, with keep-alive sockets open.
    const search = clusterSearch([first.node(), second.node(), third.node()]);
    expect(await searchAll(search, 4, serverSearchTransport)).toEqual(Array(4).fill(ARTICLE_COUNT));
    await second.close();
    const lastBefore = searchesOf(third);
    expect(await searchAll(search, 6, serverSearchTransport)).toEqual(Array(6).fill(ARTICLE_COUNT));
    expect(searchesOf(third) - lastBefore).toBe(6);
  });

  it('searches the nearest node when it is up (whatever the nodes) and falls back to the nodes when it is down', async () => {
    const before = searchesOf(third);
    expect(await searchAll(clusterSearch([first.node()], third.node()), 3)).toEqual(Array(3).fill(ARTICLE_COUNT));
    expect(searchesOf(third) - before).toBe(3);

    const deadNearest = first.node();
    expect(await searchAll(clusterSearch([third.node()], deadNearest), 3)).toEqual(Array(3).fill(ARTICLE_COUNT));
    expect(searchesOf(third) - before).toBe(6);
  });

  it('fails when every node is down (nothing answers in its place)', async () => {
    await expect(searchAll(clusterSearch([first.node(), second.node()]), 1)).rejects.toThrow();
  });

  it('with one node (host/port/protocol only) searches that node', async () => {
    const search = third.pageConfig().search;
    expect(search.server.nodes).toBeUndefined();
    const before = searchesOf(third);
    expect(await searchAll(search, 2)).toEqual([ARTICLE_COUNT, ARTICLE_COUNT]);
    expect(searchesOf(third) - before).toBe(2);
  });
});
