/**
 * Prints generator figures (no assertions): time and heap for the array form at 10k and 100k, and
 * time for the streaming form serialised to JSON Lines. Run: `npm run bench -w @khs/content`.
 */
import { generateArticles, iterateGeneratedArticles, listArticles } from '../src/index.js';

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const gc = (globalThis as { gc?: () => void }).gc;

listArticles(); // load the corpus first so it is not part of the timings
for (const count of [10_000, 100_000]) {
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const articles = generateArticles(count);
  const ms = performance.now() - started;
  gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  const words = articles.reduce((sum, a) => sum + a.readingTime, 0);
  console.log(`generateArticles(${count}): ${ms.toFixed(0)} ms, heap +${mb(heapAfter - heapBefore)}${gc ? '' : ' (no --expose-gc)'}, mean readingTime ${(words / count).toFixed(2)} min`);
}

gc?.();
const started = performance.now();
let bytes = 0;
for (const article of iterateGeneratedArticles(100_000)) bytes += JSON.stringify(article).length + 1;
console.log(`iterateGeneratedArticles(100000) + JSON.stringify: ${(performance.now() - started).toFixed(0)} ms, ${mb(bytes)} of JSON Lines, rss ${mb(process.memoryUsage().rss)}`);
