import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SearchEngine } from '../src/engine.js';
import { fixtureCollectionSchema } from './fixtures/collection-schema.js';
import { CollectionStore } from '../src/persistence/collection-store.js';
import { type SearchOutcome, WorkerPool } from '../src/pool/worker-pool.js';
import { fixtureArticles } from './support/fixtures.js';
import { createArticleCollection, hitIds, http, multiSearch, type Target, startTarget, uniqueName } from './support/target.js';

/*
 * Sets and PATCH /collections go through the worker pool as writes: the writer worker applies
 * and persists them, then every reader applies the same call in memory. A search must see them
 * on every worker, and a restarted process or a replaced worker must load them from disk.
 *
 * Two searches of one request start on the two idle workers at once (the pool hands each free
 * worker the next search of the request; `worker-pool.test.ts` shows it with worker thread ids),
 * so a request with two identical searches asks both workers.
 */

const SYNONYMS = { items: [{ id: 'cv', synonyms: ['cv', 'résumé'] }] };
const CURATIONS = { items: [{ id: 'pin', rule: { query: 'cv', match: 'exact' }, includes: [{ id: 'a1', position: 1 }], metadata: { note: 'pinned' } }] };
const QUERY = { q: 'cv', query_by: 'title,content' };

/** What the query answers with the sets attached: a1 pinned first, a4 found through `résumé`. */
function expectSetsApplied(result: any): void {
  expect(result.code).toBeUndefined();
  expect(hitIds(result)).toEqual(['a1', 'a4']);
  expect(result.hits[0].curated).toBe(true);
  expect(result.metadata).toEqual({ note: 'pinned' });
}

// Embedded only: worker threads and the data folder are this server's.
describe.runIf(!process.env.TYPESENSE_URL)('sets written through the API reach every search worker', () => {
  describe('worker pool (in process, two workers)', () => {
    let pool: WorkerPool | undefined;
    let dataDir: string | undefined;
    afterEach(async () => {
      await pool?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const task = { collection: 'articles', params: { collection: 'articles', ...QUERY }, maxResultBytes: 1_000_000 };
    const bothWorkers = async (started: WorkerPool): Promise<any[]> =>
      (await started.search([task, task])).map((outcome: SearchOutcome) => (outcome.ok ? JSON.parse(Buffer.from(outcome.body).toString('utf8')) : outcome));

    it('a set change and PATCH are applied by the writer and every reader, and a replaced reader reloads them from disk', async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'sets-pool-'));
      pool = new WorkerPool({ dataDir, size: 2, queueLimit: 50, searchBudgetMs: 10_000, log: () => {} });
      await pool.start();
      await pool.write('createCollection', [fixtureCollectionSchema('articles')]);
      await pool.write('importDocuments', ['articles', fixtureArticles.map((a) => JSON.stringify(a)).join('\n'), 'create', false, false]);

      // Without the sets no article holds the word `cv`.
      for (const result of await bothWorkers(pool)) {
        expect(hitIds(result)).toEqual([]);
        expect(result.metadata).toBeUndefined();
      }

      await pool.write('changeSets', ['upsertSynonymSet', ['words', SYNONYMS]]);
      await pool.write('changeSets', ['upsertCurationSet', ['pins', CURATIONS]]);
      await pool.write('patchCollection', ['articles', { synonym_sets: ['words'], curation_sets: ['pins'] }]);
      const [writer, reader] = await bothWorkers(pool);
      expectSetsApplied(writer);
      expectSetsApplied(reader);
      // Persisted once, by the writer.
      expect(JSON.parse(readFileSync(join(dataDir, 'sets', 'synonym_sets.json'), 'utf8'))).toEqual({ words: [{ id: 'cv', root: '', synonyms: ['cv', 'résumé'] }] });

      // Replace the reader (as after a search over its time budget): it loads the folder again.
      const threadsBefore = pool.threadIds();
      const readerThread = (pool as unknown as { workers: { thread: { terminate(): Promise<number> } }[] }).workers[1];
      await readerThread?.thread.terminate();
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && (pool.threadIds()[1] === threadsBefore[1] || !(pool as unknown as { workers: { ready: boolean }[] }).workers[1]?.ready)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(pool.threadIds()[1]).not.toBe(threadsBefore[1]);
      for (const result of await bothWorkers(pool)) expectSetsApplied(result);
    }, 60_000);
  });

  it('a reader engine (read-only store) applies set changes and PATCH in memory and writes nothing', () => {
    const folder = mkdtempSync(join(tmpdir(), 'sets-reader-'));
    try {
      const writer = new SearchEngine(new CollectionStore(folder));
      writer.createCollection(fixtureCollectionSchema('articles'));
      const schemaPath = join(folder, 'collections', 'c-articles', 'schema.json');
      const schemaBefore = readFileSync(schemaPath, 'utf8');
      const reader = new SearchEngine(new CollectionStore(folder, undefined, true));
      reader.changeSets('upsertSynonymSet', ['words', SYNONYMS]);
      reader.patchCollection('articles', { synonym_sets: ['words'] });
      expect(reader.retrieveCollection('articles').synonym_sets).toEqual(['words']);
      expect(reader.readSets('synonymSetView', ['words'])).toEqual({ items: [{ id: 'cv', root: '', synonyms: ['cv', 'résumé'] }], name: 'words' });
      expect(existsSync(join(folder, 'sets', 'synonym_sets.json'))).toBe(false);
      expect(readFileSync(schemaPath, 'utf8')).toBe(schemaBefore);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  describe('supervised server process (two workers)', () => {
    let target: Target;
    afterAll(async () => {
      await target?.close();
    });

    it('a set written over HTTP answers on both workers and survives a killed server process', async () => {
      target = await startTarget({ SEARCH_RESTART_BACKOFF_MS: '100' });
      const articles = await createArticleCollection(target, 'sets_workers');
      const synonyms = uniqueName('syn');
      const curations = uniqueName('cur');
      const admin = (method: string, path: string, body?: unknown) => http(target.url, method, path, { key: target.adminKey, body });
      const search = { collection: articles, ...QUERY };

      expect((await admin('PUT', `/synonym_sets/${synonyms}`, SYNONYMS)).status).toBe(200);
      expect((await admin('PUT', `/curation_sets/${curations}`, CURATIONS)).status).toBe(200);
      expect((await admin('PATCH', `/collections/${articles}`, { synonym_sets: [synonyms], curation_sets: [curations] })).status).toBe(200);
      for (let round = 0; round < 3; round++) for (const result of await multiSearch(target, [search, search])) expectSetsApplied(result);

      const supervised = target.process!;
      const next = supervised.nextStart();
      process.kill(supervised.pid() as number, 'SIGKILL');
      await next;
      for (let round = 0; round < 3; round++) for (const result of await multiSearch(target, [search, search])) expectSetsApplied(result);
      expect((await admin('GET', `/synonym_sets/${synonyms}`)).json).toEqual({ items: [{ id: 'cv', root: '', synonyms: ['cv', 'résumé'] }], name: synonyms });
      expect((await admin('GET', `/collections/${articles}`)).json.curation_sets).toEqual([curations]);

      // An item changed after the restart reaches both workers too.
      expect((await admin('DELETE', `/synonym_sets/${synonyms}/items/cv`)).status).toBe(200);
      for (const result of await multiSearch(target, [search, search])) {
        expect(hitIds(result)).toEqual(['a1']);
        expect(result.hits[0].curated).toBe(true);
      }
    }, 90_000);
  });
});
