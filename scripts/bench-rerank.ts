// Re-ranking benchmark (issue 36 item 7; prints figures, asserts nothing): the 10k-article corpus
// (generated) in the embedded search server, simulated visitors searching queries and opening
// results, stored in the search team's service's own storage (SQLite) as the collector and
// site-search tracking store them; then one learn of the service's re-ranking, applied as its
// curation set, and each query searched as the site searches it.
//
//   npx tsx scripts/bench-rerank.ts          (BENCH_ARTICLES=10000, BENCH_QUERIES=300, BENCH_SEED=7)
//
// Visitors per query: 1 to 12. Each query has a result visitors prefer: by text match among its
// first 20 for 4 queries in 5, at 21–30 (page 2) for the others. A visitor opens the preferred one
// with probability 0.6, else a result of the first 10 with a bias towards the top (1/position);
// a third also opens a second one. One query in 10 gets a flooder (one visitor, 50 clicks on a
// result at 11–20); one visitor in 10 gave no tracking consent (their clicks carry a query id that
// no site-search record names: nothing to learn from).
//
// Printed: the share of queries whose most-picked result (most distinct visitors, all of them) is
// in the top 3, with the text order alone (the baseline, same run) and after the learn, overall and
// among the queries where it is eligible (within the first 20, picked by at least
// SEARCH_POPULARITY_MIN_VISITORS consenting visitors); how many results moved into a first page from
// beyond the first 20 (goal 0); the learn's time next to one search's.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRandom, generateArticles } from '@khs/content';
import { startSearchServer } from '@khs/search-engine';
import { searchNodeFromUrl } from '@khs/search-nodes';
import { DEFAULT_SEARCH_SETTINGS, POPULARITY_SORT_BY } from 'contracts';
import { indexArticles } from '../mf-search/server/src/indexing/indexArticles.js';
import { DEFAULT_POPULARITY_SETTINGS } from '../mf-search/server/src/popularity/popularitySettings.js';
import { createLearnedCurationWriter } from '../mf-search/server/src/reranking/learnedCurationSet.js';
import { createRerankLearner, RERANK_CANDIDATES, RERANK_POSITIONS, tallyPicks } from '../mf-search/server/src/reranking/rerankLearner.js';
import { openInsightsStorage } from '../mf-search/server/src/storage/openInsightsStorage.js';
import type { InsightsEvent } from '../mf-search/server/src/storage/insightsEventRepository.js';

const COUNT = Number(process.env.BENCH_ARTICLES ?? 10_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const SEED = Number(process.env.BENCH_SEED ?? 7);
const MIN_VISITORS = DEFAULT_POPULARITY_SETTINGS.minVisitors;
const ADMIN = 'bench-admin-key';
const COLLECTION = 'bench-articles';
const NOW = Date.now();

// The corpus's seeded generator (mulberry32): the same visitors every run.
const { next: rand, between } = createRandom(SEED);
/** A position 1…10, biased to the top (probability ∝ 1/position). */
function biasedPosition(): number {
  const weights = Array.from({ length: 10 }, (_, i) => 1 / (i + 1));
  let left = rand() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) if ((left -= weights[i]!) <= 0) return i + 1;
  return 10;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'khs-bench-rerank-'));
const server = await startSearchServer({ port: 0, adminApiKey: ADMIN, searchOnlyApiKeys: [], dataDir: path.join(work, 'search') });
const storage = await openInsightsStorage({ dataDir: work });
try {
  const articles = generateArticles(COUNT, { seed: 42 });
  const indexed = await indexArticles({ url: server.url, apiKey: ADMIN, collectionName: COLLECTION, articles, searchSets: false });
  if (indexed.failed > 0) throw new Error(`bench corpus: ${indexed.failed} articles failed`);

  /** The query's ids as the site ranks them; `curations` off: the text order. */
  async function search(q: string, perPage: number, curations: boolean): Promise<{ ids: string[]; found: number }> {
    const params = new URLSearchParams({ q, query_by: DEFAULT_SEARCH_SETTINGS.queryBy, sort_by: POPULARITY_SORT_BY, per_page: String(perPage), include_fields: 'id', enable_curations: String(curations) });
    const response = await fetch(`${server.url}/collections/${COLLECTION}/documents/search?${params}`, { headers: { 'x-typesense-api-key': ADMIN } });
    const body = (await response.json()) as { found: number; hits: { document: { id: string } }[] };
    return { ids: body.hits.map((hit) => hit.document.id), found: body.found };
  }

  // Queries: title words and pairs of two different ones with at least 30 results, so that page 2
  // exists. `text`: the first 20 by text match as the site's first page asks them (20 a page: the
  // embedded server refines word proximity within the page's cut, so a search of 30 may order the
  // 20th and 21st otherwise), then results 21–30 (those of a search of 30 not among them).
  const words = [...new Set(articles.flatMap((article) => article.title.toLowerCase().match(/[a-z]{4,}/g) ?? []))];
  const queries: { q: string; text: string[] }[] = [];
  for (let attempt = 0; attempt < QUERIES * 20 && queries.length < QUERIES; attempt++) {
    const [first, second] = [words[between(0, words.length - 1)]!, words[between(0, words.length - 1)]!];
    const q = rand() < 0.7 || first === second ? first : `${first} ${second}`;
    if (queries.some((query) => query.q === q)) continue;
    const thirty = await search(q, 30, false);
    if (thirty.ids.length < 30) continue;
    const firstPage = (await search(q, RERANK_CANDIDATES, false)).ids;
    queries.push({ q, text: [...firstPage, ...thirty.ids.filter((id) => !firstPage.includes(id))].slice(0, 30) });
  }

  // The simulated visitors, stored as the collector and site-search tracking store them.
  const truth = new Map<string, Map<string, Set<string>>>();
  let visitorCount = 0;
  let searchCount = 0;
  const events: InsightsEvent[] = [];
  for (const [index, query] of queries.entries()) {
    const preferred = query.text[rand() < 0.8 ? between(0, RERANK_CANDIDATES - 1) : between(RERANK_CANDIDATES, 29)]!;
    const picked = new Map<string, Set<string>>();
    truth.set(query.q, picked);
    const visitors = between(1, 12);
    for (let visitor = 0; visitor < visitors; visitor++) {
      const userToken = `anonymous-${index}-${visitor}`;
      const queryId = `s-${index}-${visitor}`;
      visitorCount++;
      // One visitor in 10 gave no tracking consent: no site-search record names their query id.
      if (rand() >= 0.1) {
        await storage.searches.store({ query: query.q, hitCount: 30, filters: {}, page: '/search', queryId, searchedAt: NOW - between(1, 600) * 60_000 });
        searchCount++;
      }
      const opened = new Set([rand() < 0.6 ? preferred : query.text[biasedPosition() - 1]!]);
      if (rand() < 1 / 3) opened.add(query.text[biasedPosition() - 1]!);
      for (const id of opened) {
        events.push({ eventType: 'click', eventName: 'Article Opened', index: COLLECTION, userToken, objectIds: [id], positions: [query.text.indexOf(id) + 1], queryId, timestamp: NOW - 30_000 });
        if (!picked.has(id)) picked.set(id, new Set());
        picked.get(id)!.add(userToken);
      }
    }
    if (rand() < 0.1) {
      const flooded = query.text[between(10, 19)]!;
      for (let click = 0; click < 50; click++) events.push({ eventType: 'click', eventName: 'Article Opened', index: COLLECTION, userToken: `flooder-${index}`, objectIds: [flooded], queryId: `s-${index}-0`, timestamp: NOW - 20_000 });
      if (!picked.has(flooded)) picked.set(flooded, new Set());
      picked.get(flooded)!.add(`flooder-${index}`);
    }
  }
  for (let start = 0; start < events.length; start += 1000) await storage.events.store(events.slice(start, start + 1000));

  /** The query's most picked result (most distinct visitors, all of them; ties: the better text match). */
  const mostPicked = (query: { q: string; text: string[] }) =>
    [...truth.get(query.q)!].sort(([a, av], [b, bv]) => bv.size - av.size || query.text.indexOf(a) - query.text.indexOf(b))[0]!;

  const writer = createLearnedCurationWriter({ nodes: [searchNodeFromUrl(server.url)!], apiKey: ADMIN, collectionName: COLLECTION });
  const learner = createRerankLearner({ index: COLLECTION, store: storage.reranking, organicResults: writer.organicResults, apply: writer.apply, minVisitors: MIN_VISITORS, now: () => NOW });
  const oneSearchStart = performance.now();
  for (const query of queries.slice(0, 20)) await writer.organicResults(query.q);
  const oneSearchMs = (performance.now() - oneSearchStart) / Math.min(20, queries.length);
  const learnStart = performance.now();
  const outcome = await learner.learn();
  const learnMs = performance.now() - learnStart;

  // What the learner could know: the picks of consenting visitors (a site-search record names their search).
  const learnable = tallyPicks(await storage.reranking.picks(COLLECTION, 0));
  const learnableVisitors = (q: string, id: string) => learnable.get(q)?.get(id)?.size ?? 0;
  let topBefore = 0;
  let topAfter = 0;
  let eligible = 0;
  let eligibleTop = 0;
  let beyondMostPicked = 0;
  let movedIn = 0;
  let weakPassedStrong = 0;
  for (const query of queries) {
    const [best] = mostPicked(query);
    const textFirst20 = query.text.slice(0, RERANK_CANDIDATES);
    const after = (await search(query.q, RERANK_CANDIDATES, true)).ids;
    if (textFirst20.slice(0, RERANK_POSITIONS).includes(best)) topBefore++;
    const inTop = after.slice(0, RERANK_POSITIONS).includes(best);
    if (inTop) topAfter++;
    if (textFirst20.includes(best) && learnableVisitors(query.q, best) >= MIN_VISITORS) {
      eligible++;
      if (inTop) eligibleTop++;
    }
    if (!textFirst20.includes(best)) beyondMostPicked++;
    const moved = after.filter((id) => !textFirst20.includes(id));
    movedIn += moved.length;
    if (moved.length > 0 && process.env.BENCH_DEBUG) console.log(JSON.stringify({ q: query.q, moved, pins: outcome.applied.find((r) => r.query === query.q)?.pins, text: query.text, after }));
    // A lifted result must have more consenting distinct visitors than every result it passed.
    for (const pin of outcome.applied.find((reranking) => reranking.query === query.q)?.pins ?? []) {
      const passed = textFirst20.slice(0, pin.from - 1).filter((id) => after.indexOf(id) > after.indexOf(pin.id));
      if (passed.some((id) => learnableVisitors(query.q, id) >= pin.visitors)) weakPassedStrong++;
    }
  }
  const share = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);
  console.log(`[rerank] ${COUNT} articles, ${queries.length} queries, ${visitorCount} simulated visitors (${searchCount} searches with tracking consent), ${events.length} click events; min visitors ${MIN_VISITORS}`);
  console.log('| figure | text order alone (baseline) | after the learn |');
  console.log('|---|---|---|');
  console.log(`| queries whose most-picked result is in the top ${RERANK_POSITIONS} | ${share(topBefore, queries.length)} (${topBefore}) | ${share(topAfter, queries.length)} (${topAfter}) |`);
  console.log(`| same, among the ${eligible} queries where it is eligible (within the first ${RERANK_CANDIDATES}, ≥ ${MIN_VISITORS} consenting visitors) | – | ${share(eligibleTop, eligible)} (${eligibleTop}) |`);
  console.log(`| results moved into a first page from beyond the first ${RERANK_CANDIDATES} (goal 0) | 0 | ${movedIn} |`);
  console.log(`| queries whose most-picked result is beyond the first ${RERANK_CANDIDATES} (stays out by the bound) | ${beyondMostPicked} | ${beyondMostPicked} |`);
  console.log(`| lifted results that passed a result as many or more consenting visitors picked (goal 0) | – | ${weakPassedStrong} |`);
  console.log(`[rerank] one learn: ${learnMs.toFixed(0)} ms (${outcome.picksRead} picks read, ${outcome.queriesSearched} queries searched, ${outcome.applied.length} re-ranked) next to one search of the text order: ${oneSearchMs.toFixed(1)} ms (same run)`);
} finally {
  await storage.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
