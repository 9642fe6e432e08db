import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultArticlesDir } from '@khs/content';
import { searchNodeFromUrl } from '@khs/search-nodes';
import { startSearchServer, type RunningSearchServer } from '@khs/search-engine';
import { type ContentIndexer, startContentIndexer } from './contentIndexer.js';
import { memoryIndexState } from './indexState.js';
import { indexVersionSearch, versionOfResult } from '../../../src/config/indexVersion.js';

const ADMIN = 'content-indexer-test-admin';
const COLLECTION = 'watched-articles';

function articleFile(headline: string, extra = ''): string {
  return `---\nheadline: ${headline}\ntitle: ${headline}\nintro: Intro.\ntopic: [Coaching]\ndate: 2025-03-14\nimage: /content-images/default.svg\nimageAlt: Grey\ncta: Read more\n${extra}---\n\nAbout ${headline}.\n`;
}

describe('startContentIndexer: the content folder watched, the index following it', () => {
  let server: RunningSearchServer;
  let dir: string;
  let indexer: ContentIndexer;
  const log: string[] = [];
  const state = memoryIndexState();
  beforeAll(async () => {
    server = await startSearchServer({ port: 0, adminApiKey: ADMIN, searchOnlyApiKeys: [] });
    dir = mkdtempSync(path.join(os.tmpdir(), 'khs-indexer-'));
    cpSync(defaultArticlesDir, dir, { recursive: true });
    writeFileSync(path.join(dir, 'broken.md'), articleFile('Broken').replace('Coaching', 'Cooking'));
    indexer = startContentIndexer({
      target: { nodes: [searchNodeFromUrl(server.url)!], apiKey: ADMIN, collectionName: COLLECTION },
      contentDir: dir,
      stateFile: path.join(dir, 'unused.json'),
      state,
      log: (message) => log.push(message),
    });
    await indexer.idle();
  }, 30_000);
  afterAll(async () => {
    await indexer.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function found(q: string): Promise<string[]> {
    const response = await fetch(`${server.url}/collections/${COLLECTION}/documents/search?q=${encodeURIComponent(q)}&query_by=headline&per_page=100`, { headers: { 'x-typesense-api-key': ADMIN } });
    const body = (await response.json()) as { hits: { document: { id: string } }[] };
    return body.hits.map((hit) => hit.document.id).sort();
  }
  async function eventually(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await check()).toBe(true);
  }

  it('indexes the public articles at start and names a bad file with its line instead of failing', async () => {
    expect((await found('*')).length).toBe(62);
    expect(log).toContainEqual(expect.stringMatching(/^content problem \(article left out\): broken\.md:5: topic\[0\]: unknown topic "Cooking"/));
  });

  it('follows an added, a changed, a draft and a removed file', async () => {
    writeFileSync(path.join(dir, 'kestrel.md'), articleFile('Kestrelwing'));
    await eventually(async () => (await found('Kestrelwing')).join() === 'kestrel');
    writeFileSync(path.join(dir, 'kestrel.md'), articleFile('Kestrelwing', 'draft: true\n'));
    await eventually(async () => (await found('Kestrelwing')).length === 0);
    writeFileSync(path.join(dir, 'kestrel.md'), articleFile('Kestrelwing again'));
    await eventually(async () => (await found('Kestrelwing')).join() === 'kestrel');
    rmSync(path.join(dir, 'kestrel.md'));
    await eventually(async () => (await found('Kestrelwing')).length === 0);
    expect((await found('*')).length).toBe(62);
  });

  async function recordedVersion(): Promise<string> {
    const response = await fetch(`${server.url}/multi_search`, {
      method: 'POST',
      headers: { 'x-typesense-api-key': ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ searches: [indexVersionSearch(COLLECTION)] }),
    });
    return versionOfResult(((await response.json()) as { results: unknown[] }).results[0]);
  }

  it('records the content version of each completed sync as the index version, once the articles are in', async () => {
    const before = await recordedVersion();
    expect(before).toMatch(/^[\w+/=-]{8,}$/);
    writeFileSync(path.join(dir, 'merlin.md'), articleFile('Merlinquill'));
    // The version moves only once the sync that brought the article in is done: never before it.
    await eventually(async () => (await recordedVersion()) !== before);
    expect(await found('Merlinquill')).toEqual(['merlin']);
    const withMerlin = await recordedVersion();
    rmSync(path.join(dir, 'merlin.md'));
    await eventually(async () => (await recordedVersion()) !== withMerlin);
    expect(await found('Merlinquill')).toEqual([]);
    // The same content is the same version (every instance's indexer and every shell agree).
    expect(await recordedVersion()).toBe(before);
  });

  it('logs its first sync even when the index already holds every article (a restart on kept data, a cluster seeded before the start)', async () => {
    await indexer.idle();
    const again: string[] = [];
    const second = startContentIndexer({
      target: { nodes: [searchNodeFromUrl(server.url)!], apiKey: ADMIN, collectionName: COLLECTION },
      contentDir: dir,
      stateFile: path.join(dir, 'unused.json'),
      state,
      log: (message) => again.push(message),
    });
    try {
      await second.idle();
      expect(again.filter((line) => line.startsWith('synced '))).toEqual([expect.stringMatching(new RegExp(`^synced "${COLLECTION}" in \\d+ ms: 0 upserted, 0 deleted, [1-9]\\d* unchanged, 0 failed$`))]);
    } finally {
      await second.close();
    }
  });
});
