import { listArticles } from '@khs/content';
import { startSearchServer, type RunningSearchServer } from '@khs/search-engine';
import { indexArticles } from 'mf-search/index-articles';
import { INDEX_VERSION_FIELD, indexVersionCollection } from 'mf-search/index-version';
import { DEFAULT_SEARCH_INDEX_NAME, PAGE_CONFIG_ELEMENT_ID, type PageConfig } from 'contracts';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { ADMIN_API_KEY, holdPort, SEARCH_API_KEY, startStack } from '../harness/stack.js';

// The site on a two-node search cluster (TYPESENSE_NODES): two embedded search servers on
// loopback, started by the search engine's own start code and each seeded with the same
// collection (the embedded server does not replicate; a real Typesense cluster does). One node
// is killed while a visitor searches: the browser's client moves to the other node.
//
// What the stack's indexer creates on first sync it would find on every node of a real cluster;
// here each node is given it before the start, as replication would. Without it the indexer's
// client (which shuffles the nodes, typesense-js `randomizeNodes`) created the index version's
// collection on one node and wrote its document to the other (404) in half of its attempts: the
// start failed after five such syncs about once in 16 runs, whatever the machine's speed.

const list = (page: Page) => page.locator('.khs-search-list');
const listBox = (page: Page) => list(page).getByRole('combobox');
const teasers = (page: Page) => list(page).locator('.khs-search-teaser');

/** A node browsers may search from `siteOrigin` only (the search server answers CORS for listed origins). */
async function startSeededNode(siteOrigin: string): Promise<RunningSearchServer> {
  const server = await startSearchServer({ port: 0, workers: 1, adminApiKey: ADMIN_API_KEY, searchOnlyApiKeys: [SEARCH_API_KEY], allowedOrigins: [siteOrigin] });
  await indexArticles({ url: server.url, apiKey: ADMIN_API_KEY, collectionName: DEFAULT_SEARCH_INDEX_NAME, articles: listArticles() });
  const versionCollection = await fetch(new URL('/collections', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-typesense-api-key': ADMIN_API_KEY },
    body: JSON.stringify({ name: indexVersionCollection(DEFAULT_SEARCH_INDEX_NAME), fields: [{ name: INDEX_VERSION_FIELD, type: 'string' }] }),
  });
  expect(versionCollection.status).toBe(201);
  return server;
}

async function search(page: Page, query: string): Promise<void> {
  await listBox(page).fill(query);
  await listBox(page).press('Enter');
  await expect(list(page)).toHaveAttribute('data-status', 'idle');
}

test('a search cluster: the page lists every node, and searching goes on on the other node when one is killed', async ({ page, problems }) => {
  test.setTimeout(120_000);
  // The shell's port is chosen (and held) first: the nodes answer CORS for its pages only.
  const shellPort = await holdPort();
  const siteOrigin = shellPort.url;
  const nodes = [await startSeededNode(siteOrigin), await startSeededNode(siteOrigin)];
  const [first, second] = nodes as [RunningSearchServer, RunningSearchServer];
  // TYPESENSE_HOST/PORT name the first node, so the stack starts no search server of its own.
  const stack = await startStack({
    shellPort,
    env: { TYPESENSE_NODES: nodes.map((node) => node.url).join(','), TYPESENSE_HOST: '127.0.0.1', TYPESENSE_PORT: String(first.port) },
  });
  try {
    const searchesByPort = new Map<string, number>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/multi_search')) searchesByPort.set(url.port, (searchesByPort.get(url.port) ?? 0) + 1);
    });
    await page.goto(new URL('/search', stack.url).href);
    await islandsSettled(page);

    const config = JSON.parse((await page.locator(`#${PAGE_CONFIG_ELEMENT_ID}`).textContent()) ?? '{}') as PageConfig;
    expect(config.search.server.nodes).toEqual(nodes.map((node) => ({ host: '127.0.0.1', port: node.port, protocol: 'http' })));

    await search(page, 'leadership');
    await expect(teasers(page).first()).toBeVisible();

    await first.close();
    nodes.splice(nodes.indexOf(first), 1); // closed: a second close() would wait for an event that never comes
    const secondBefore = second.stats().searches;
    for (const query of ['mentoring', 'retrospectives', 'burnout']) {
      await search(page, query);
      await expect(teasers(page).first()).toContainText(new RegExp(query, 'i'));
    }
    expect(second.stats().searches - secondBefore).toBeGreaterThanOrEqual(3);
    expect(searchesByPort.get(String(second.port))).toBeGreaterThanOrEqual(3);
    // A request to the killed node fails at the network level (no HTTP answer), never as an error on the page.
    expect(problems.failedResponses.filter((line) => line.includes('/multi_search'))).toEqual([]);
  } finally {
    await stack.close();
    await Promise.allSettled(nodes.map((node) => node.close()));
  }
});
