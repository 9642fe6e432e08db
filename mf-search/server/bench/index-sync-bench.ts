// Index sync benchmark (prints figures, asserts nothing): a 10k-article folder of Markdown files
// (generated), indexed into the embedded search server; then, in the same run, the time of
//   - a full re-index of the whole corpus (`--full`: every article sent again),
//   - an incremental sync after 1 changed file,
//   - an incremental sync after 1,000 changed files,
//   - an incremental sync with nothing changed,
// each including the folder re-read (stat of every file, parse of the changed ones), median of a few rounds.
// Run: npm run bench:index -w mf-search   (BENCH_ARTICLES=10000, BENCH_ROUNDS=3)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ArticleFolderReader, articleFileText, contentImagesDir, generateArticles, listSurveys, type Article } from '@khs/content';
import { searchNodeFromUrl } from '@khs/search-nodes';
import { startSearchServer } from '@khs/search-engine';
import { memoryIndexState } from '../src/indexing/indexState.js';
import { syncArticleIndex } from '../src/indexing/syncArticleIndex.js';

const COUNT = Number(process.env.BENCH_ARTICLES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ADMIN = 'bench-admin-key';

const dir = mkdtempSync(path.join(os.tmpdir(), 'khs-index-bench-'));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-index-bench-data-'));
const server = await startSearchServer({ port: 0, adminApiKey: ADMIN, searchOnlyApiKeys: [], dataDir });
try {
  const articles: Article[] = generateArticles(COUNT, { seed: 42 });
  for (const article of articles) writeFileSync(path.join(dir, `${article.id}.md`), articleFileText(article));
  const reader = new ArticleFolderReader(dir, { surveyHandles: new Set(listSurveys().map((s) => s.formHandle)), imagesDir: contentImagesDir });
  const state = memoryIndexState();
  const target = { nodes: [searchNodeFromUrl(server.url)!], apiKey: ADMIN, collectionName: 'bench-articles' };
  let edition = 0;

  const sync = async (full: boolean): Promise<{ ms: number; upserted: number }> => {
    const started = performance.now();
    const snapshot = reader.read();
    const result = await syncArticleIndex({ target, articles: snapshot.articles, hashes: snapshot.hashesById, state, full, searchSets: false });
    if (result.failed > 0 || snapshot.problems.length > 0) throw new Error(`bench corpus: ${result.failed} failed, ${snapshot.problems.length} problems`);
    return { ms: performance.now() - started, upserted: result.upserted };
  };
  const change = (count: number): void => {
    edition++;
    for (const article of articles.slice(0, count)) {
      writeFileSync(path.join(dir, `${article.id}.md`), articleFileText({ ...article, headline: `${article.headline} (edition ${edition})` }));
    }
  };
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  const initial = await sync(false);
  console.log(`[index-sync] ${COUNT} articles, first index (collection created): ${initial.ms.toFixed(0)} ms, ${initial.upserted} sent`);
  const rows: { what: string; ms: number; sent: number }[] = [];
  const measure = async (what: string, prepare: () => void, full: boolean) => {
    const times: number[] = [];
    let sent = 0;
    for (let round = 0; round < ROUNDS; round++) {
      prepare();
      const result = await sync(full);
      times.push(result.ms);
      sent = result.upserted;
    }
    rows.push({ what, ms: median(times), sent });
  };
  await measure(`full re-index (--full), ${COUNT} articles`, () => {}, true);
  await measure('incremental, 1 changed file', () => change(1), false);
  await measure('incremental, 1,000 changed files', () => change(1000), false);
  await measure('incremental, nothing changed', () => {}, false);
  const baseline = rows[0]!.ms;
  console.log(`[index-sync] median of ${ROUNDS} rounds, same run, same server:`);
  console.log('| sync | documents sent | ms | vs full re-index |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.what} | ${row.sent} | ${row.ms.toFixed(0)} | ${(row.ms / baseline).toFixed(3)}× |`);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
