/**
 * In-process index memory for N generated articles (no HTTP server, no persistence):
 *
 *   node --expose-gc --import tsx measure/index-memory.ts --size 100000
 *
 * Prints RSS / heap / array buffers after a forced GC, before and after indexing, and the
 * bytes of the word-position sequences (word proximity). Run it on another checkout to
 * compare builds.
 */
import { iterateFixtureDocuments } from '../test/fixtures/generate-documents.js';
import { SearchEngine } from '../src/engine.js';
import { fixtureCollectionSchema } from '../test/fixtures/collection-schema.js';

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const size = Number(argument('size', '100000'));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const snapshot = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed, buffers: usage.arrayBuffers };
};

const engine = new SearchEngine(undefined);
engine.createCollection(fixtureCollectionSchema('articles'));
const before = snapshot();
let batch: string[] = [];
const started = Date.now();
for (const article of iterateFixtureDocuments(size, { seed: 7 })) {
  const { id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta } = article;
  batch.push(JSON.stringify({ id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta }));
  if (batch.length === 1000) {
    engine.importDocuments('articles', batch.join('\n'), 'upsert', false, false);
    batch = [];
  }
}
if (batch.length > 0) engine.importDocuments('articles', batch.join('\n'), 'upsert', false, false);
const collection = engine.get('articles');
collection?.compact();
const after = snapshot();
let sequenceBytes = 0;
for (const text of collection?.textFields.values() ?? []) {
  const sequences = (text as { sequences?: { byteSize: number } }).sequences;
  if (sequences) sequenceBytes += sequences.byteSize;
}
console.log(`${size} articles indexed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`after GC: RSS ${mb(after.rss)} (Δ ${mb(after.rss - before.rss)}), heap ${mb(after.heap)} (Δ ${mb(after.heap - before.heap)}), array buffers ${mb(after.buffers)} (Δ ${mb(after.buffers - before.buffers)})`);
console.log(`word-position sequences: ${sequenceBytes > 0 ? mb(sequenceBytes) : 'none in this build'}`);
