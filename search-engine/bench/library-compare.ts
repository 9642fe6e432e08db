/**
 * Candidate comparison for the engine choice (prints figures; not a test).
 *
 *   npx tsx bench/library-compare.ts [--size 10000]
 *
 * Each candidate runs in its own child process so memory is measured alone:
 * MiniSearch 7.2.0, FlexSearch 0.8.212 and our own index (the engine the
 * server uses). Same generated corpus, same fields; typo behaviour is
 * compared on `found` for sample queries; facet counts on `topic` are
 * computed over all matches for every candidate.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { iterateFixtureDocuments } from '../test/fixtures/generate-documents.js';
import FlexSearch from 'flexsearch';
import MiniSearch from 'minisearch';
import { SearchEngine } from '../src/engine.js';
import { fixtureCollectionSchema } from '../test/fixtures/collection-schema.js';
import { executeSearch } from '../src/search/execute-search.js';
import { parseSearchParams } from '../src/search/search-params.js';
import { fmt, percentiles } from './bench-support.js';
import { buildQueryMix } from './query-mix.js';

const FIELDS = ['title', 'headline', 'intro', 'content'] as const;
const SAMPLE_QUERIES = ['remote', 'leadrship', 'feedbakc', 'comunicaton', 'negotaiton', 'negot', 'conpet', 'remote teamwork', 'leadership coa'];

interface Doc {
  id: string;
  title: string;
  headline: string;
  intro: string;
  content: string;
  topic: string[];
  date: number;
  [key: string]: unknown;
}

/** A candidate: build the index, then answer a query with all matching ids. */
interface Candidate {
  build(docs: Doc[]): void;
  search(q: string): string[];
}

function typoBudget(term: string): number {
  return term.length >= 7 ? 2 : term.length >= 4 ? 1 : 0;
}

function miniSearchCandidate(): Candidate {
  const index = new MiniSearch<Doc>({ fields: [...FIELDS], storeFields: [] });
  return {
    build: (docs) => index.addAll(docs),
    search: (q) =>
      index
        .search(q, {
          combineWith: 'AND',
          prefix: (_term, i, terms) => i === terms.length - 1,
          fuzzy: (term) => typoBudget(term) || false,
          boost: { title: 4, headline: 3, intro: 2 },
        })
        .map((r) => String(r.id)),
  };
}

function flexSearchCandidate(): Candidate {
  const index = new FlexSearch.Document({ document: { id: 'id', index: [...FIELDS] }, tokenize: 'forward', encoder: 'LatinBalance' } as never);
  return {
    build: (docs) => {
      for (const doc of docs) index.add(doc as never);
    },
    search: (q) => {
      const results = index.search(q, { limit: 1_000_000, merge: true } as never) as unknown as { id: string }[];
      return results.map((r) => String(r.id));
    },
  };
}

function ownEngineCandidate(): Candidate {
  const engine = new SearchEngine(undefined);
  engine.createCollection(fixtureCollectionSchema('articles'));
  const collection = engine.get('articles');
  return {
    build: (docs) => {
      for (const doc of docs) collection?.write(doc, 'upsert');
      collection?.compact();
    },
    search: (q) => {
      if (!collection) return [];
      // Same work as the others: top 10 plus topic facet counts over all matches (computed inside).
      const params = parseSearchParams({ q, query_by: FIELDS.join(','), per_page: '10', facet_by: 'topic' });
      const result = executeSearch(collection, params) as { found: number };
      return Array.from({ length: result.found }, (_, i) => String(i));
    },
  };
}

function topicCounts(ids: string[], topics: Map<string, string[]>): number {
  const counts = new Map<string, number>();
  for (const id of ids) for (const t of topics.get(id) ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts.size;
}

function runCandidate(name: string, size: number): void {
  const docs: Doc[] = [];
  for (const a of iterateFixtureDocuments(size, { seed: 7 })) {
    docs.push({ id: a.id, title: a.title, headline: a.headline, intro: a.intro, content: a.content, topic: a.topic, date: a.date, image: a.image, url: a.url, readingTime: a.readingTime, cta: a.cta });
  }
  const topics = new Map(docs.map((d) => [d.id, d.topic]));
  global.gc?.();
  const before = process.memoryUsage();
  const candidate = name === 'minisearch' ? miniSearchCandidate() : name === 'flexsearch' ? flexSearchCandidate() : ownEngineCandidate();
  const started = performance.now();
  candidate.build(docs);
  const buildSeconds = (performance.now() - started) / 1000;
  global.gc?.();
  const after = process.memoryUsage();
  const found = SAMPLE_QUERIES.map((q) => candidate.search(q).length);
  const queries = buildQueryMix(docs, 50).filter((q) => q.kind !== 'facets + filter');
  const latencies: number[] = [];
  for (const query of queries) {
    const t = performance.now();
    const ids = candidate.search(String(query.params.q));
    if (name !== 'own') topicCounts(ids, topics); // facets over all matches (ours computes them inside)
    latencies.push(performance.now() - t);
  }
  const p = percentiles(latencies);
  console.log(JSON.stringify({ name, buildSeconds, rssMb: (after.rss - before.rss) / 1048576, heapMb: (after.heapUsed - before.heapUsed) / 1048576, found, p }));
}

const argument = (flag: string, fallback: string): string => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const size = Number(argument('--size', '10000'));
const only = argument('--candidate', '');
if (only) {
  runCandidate(only, size);
} else {
  const self = fileURLToPath(import.meta.url);
  const rows: { name: string; buildSeconds: number; rssMb: number; heapMb: number; found: number[]; p: { p50: number; p95: number; p99: number } }[] = [];
  for (const name of ['minisearch', 'flexsearch', 'own']) {
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--candidate', name, '--size', String(size)], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
    if (!line) {
      console.error(`${name} failed:`, child.stderr.slice(0, 2000));
      continue;
    }
    rows.push(JSON.parse(line));
  }
  const label: Record<string, string> = { minisearch: 'MiniSearch 7.2.0', flexsearch: 'FlexSearch 0.8.212', own: 'own index (chosen)' };
  console.log(`\n${size.toLocaleString('en')} generated articles, fields ${FIELDS.join(', ')}`);
  console.log('| candidate | build s | RSS Δ MB | heap Δ MB | query p50 / p95 / p99 ms (incl. topic facet counts) |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${label[r.name]} | ${fmt(r.buildSeconds)} | ${fmt(r.rssMb, 0)} | ${fmt(r.heapMb, 0)} | ${fmt(r.p.p50)} / ${fmt(r.p.p95)} / ${fmt(r.p.p99)} |`);
  console.log(`\n| query (found) | ${rows.map((r) => label[r.name]).join(' | ')} |`);
  console.log(`|---|${rows.map(() => '---').join('|')}|`);
  SAMPLE_QUERIES.forEach((q, i) => console.log(`| \`${q}\` | ${rows.map((r) => r.found[i]).join(' | ')} |`));
}
