import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleDocument } from '../../server/src/indexing/articleDocument.js';
import { recordIndexVersion } from '../../server/src/indexing/recordIndexVersion.js';
import { listArticles } from '@khs/content';
import { DEFAULT_SEARCH_INDEX_NAME } from 'contracts';
import { SEEDED_ADMIN_KEY, startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { dataVersion, dispose, render } from './SearchList.server.js';

// A publish shows in the server render once the indexer recorded it, although renders and answers
// are cached (10 s and SEARCH_CACHE_SECONDS): both are keyed on the index version.

let server: SeededSearchServer;
beforeAll(async () => {
  server = await startSeededSearchServer();
}, 30_000);
afterAll(async () => {
  dispose();
  await server?.close();
});

function renderFor(query: string) {
  return render({}, { config: server.pageConfig(), url: `http://shell.test/search?q=${encodeURIComponent(query)}`, signal: new AbortController().signal } as never);
}

async function upsert(document: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${server.url}/collections/${DEFAULT_SEARCH_INDEX_NAME}/documents?action=upsert`, {
    method: 'POST',
    headers: { 'x-typesense-api-key': SEEDED_ADMIN_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  expect(response.status).toBe(201);
}

describe('the search list server render follows the index version', () => {
  it('keeps its cached render while the version stays, and renders the published article once the version moved', async () => {
    const target = { nodes: [server.node()], apiKey: SEEDED_ADMIN_KEY, collectionName: DEFAULT_SEARCH_INDEX_NAME };
    await recordIndexVersion(target, 'before-publish');
    const before = await renderFor('zanzibarquill');
    expect(before.html).not.toContain('data-object-id="zanzibar-quill"');
    expect((before.state as { indexVersion?: string }).indexVersion).toBe('before-publish');
    expect(dataVersion()).toBe('before-publish');

    const article = { ...listArticles()[0]!, id: 'zanzibar-quill', headline: 'The zanzibarquill method', title: 'The zanzibarquill method', url: '/articles/zanzibar-quill' };
    await upsert(articleDocument(article));
    // The document is in, but the indexer has not recorded it: the cached render stays (a cache is still a cache).
    expect((await renderFor('zanzibarquill')).html).toBe(before.html);

    await recordIndexVersion(target, 'after-publish');
    await expect.poll(async () => (await renderFor('zanzibarquill')).html, { timeout: 10_000, interval: 200 }).toContain('data-object-id="zanzibar-quill"');
    expect(dataVersion()).toBe('after-publish');
  });
});
