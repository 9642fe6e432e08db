// Benchmark of the watchlist service: endpoint latency for 1, 50 and 500 articles (real HTTP on a
// free port, real SQLite share storage, requests as the shell's proxy forwards them) and PDF
// generation time and size for 50 articles.
// Run: npx tsx mf-watchlist/server/bench/watchlist-bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateArticles, type Article } from '@khs/content';
import { EDGE_KEY_HEADER, LINK_ORIGIN_HEADER, edgeKeyOf } from '@khs/team-service/edge';
import { buildWatchlistService } from '../src/buildWatchlistService.js';
import { renderWatchlistPdf } from '../src/renderWatchlistPdf.js';
import { openWatchlistStorage } from '../src/storage/openWatchlistStorage.js';
import type { WatchlistContent } from '../src/watchlistContent.js';

const CORPUS_SIZE = 2000;
const WARMUP = 20;
const ITERATIONS = 200;
const PDF_ITERATIONS = 50;

const EDGE_KEY = edgeKeyOf('watchlist-bench-cookie-secret-0123456789abcdef');
const SITE_NAME = 'KHS Competence';

function contentStoreOf(articles: Article[]): WatchlistContent {
  const sorted = [...articles].sort((a, b) => b.date - a.date);
  const byId = new Map(sorted.map((article) => [article.id, article]));
  return { listArticles: () => sorted, getArticle: (id) => byId.get(id) };
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return { mean: mean.toFixed(2), p50: at(0.5).toFixed(2), p95: at(0.95).toFixed(2), max: at(1).toFixed(2) };
}

async function timed(run: () => Promise<unknown>, iterations: number): Promise<number[]> {
  for (let i = 0; i < WARMUP; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'watchlist-bench-'));
  const storage = await openWatchlistStorage({ dataDir });
  const articles = generateArticles(CORPUS_SIZE, { seed: 7 });
  const content = contentStoreOf(articles);
  const app = await buildWatchlistService({ storage, content, edgeKey: EDGE_KEY, siteName: SITE_NAME });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  try {
    const post = async (url: string, count: number) => {
      const body = JSON.stringify({
        storedWatchlist: { articles: Object.fromEntries(articles.slice(0, count).map((a) => [a.id, { title: a.title }])) },
      });
      const response = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', [EDGE_KEY_HEADER]: EDGE_KEY, [LINK_ORIGIN_HEADER]: 'https://khs.example' },
        body,
      });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return response.arrayBuffer();
    };

    console.log(`Corpus: ${CORPUS_SIZE} generated articles; SQLite in ${dataDir}; ${ITERATIONS} sequential requests after ${WARMUP} warm-up.`);
    console.log('\nPOST /api/watchlist (HTTP round trip, ms)');
    for (const count of [1, 50, 500]) {
      const bytes = (await post('/api/watchlist', count)).byteLength;
      const result = stats(await timed(() => post('/api/watchlist', count), ITERATIONS));
      console.log(`  ${String(count).padStart(3)} articles: mean ${result.mean}  p50 ${result.p50}  p95 ${result.p95}  max ${result.max}  (response ${(bytes / 1024).toFixed(1)} KiB)`);
    }

    console.log('\nPDF for 50 articles');
    const fifty = articles.slice(0, 50);
    const coldStart = performance.now();
    const first = await renderWatchlistPdf({ siteName: SITE_NAME, articles: fifty, baseUrl: base });
    const cold = performance.now() - coldStart;
    const generation = stats(
      await timed(() => renderWatchlistPdf({ siteName: SITE_NAME, articles: fifty, baseUrl: base }), PDF_ITERATIONS),
    );
    console.log(`  generation (renderWatchlistPdf, ms): first ${cold.toFixed(2)}  mean ${generation.mean}  p50 ${generation.p50}  p95 ${generation.p95}  max ${generation.max}`);
    console.log(`  size: ${first.byteLength} bytes (${(first.byteLength / 1024).toFixed(1)} KiB)`);
    const endpoint = stats(await timed(() => post('/api/watchlist/pdf', 50), PDF_ITERATIONS));
    console.log(`  POST /api/watchlist/pdf (HTTP round trip, ms): mean ${endpoint.mean}  p50 ${endpoint.p50}  p95 ${endpoint.p95}  max ${endpoint.max}`);
    const largest = performance.now();
    const big = await renderWatchlistPdf({ siteName: SITE_NAME, articles: articles.slice(0, 500), baseUrl: base });
    console.log(`  (largest allowed list, 500 articles: ${(performance.now() - largest).toFixed(2)} ms, ${(big.byteLength / 1024).toFixed(1)} KiB)`);
    console.log(`  target: under 300 ms -> ${Number(generation.p95) < 300 ? 'met' : 'NOT met'} (p95 generation)`);
  } finally {
    await app.close();
    await storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
