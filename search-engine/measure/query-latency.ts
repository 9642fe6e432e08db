/**
 * In-process query latency of the benchmark's query mix (bench/query-mix.ts) on N generated
 * articles, optionally with feature variants of every query, interleaved so machine load hits
 * all variants alike:
 *
 *   node --import tsx measure/query-latency.ts --size 10000 --queries 100 [--rounds 3] [--variants] [--cpu] [--long-queries]
 *
 * `--cpu` measures each query's CPU time (process.cpuUsage, user + system) instead of wall
 * time: on a machine shared with other work it is far less disturbed by their load.
 *
 * `--variants` (this build only) adds: the site's synonym/curation sets attached vs
 * `enable_synonyms=false&enable_curations=false`, `facet_by=*`, `group_by=topic`.
 * Without it the script runs on older builds too (for A/B against a baseline checkout).
 *
 * `--long-queries` (issue 21) measures, in the same rounds, three query lengths drawn from the
 * corpus's own words (same fields and parameters as the mix): three words, a hundred words
 * (each from another article: no document holds them all, so drop rounds decide) and a
 * hundred-word passage of one article (the whole query matches it).
 */
import { generateFixtureDocuments } from '../test/fixtures/generate-documents.js';
import { performance } from 'node:perf_hooks';
import { buildQueryMix } from '../bench/query-mix.js';
import { SearchEngine } from '../src/engine.js';
import { fixtureCollectionSchema } from '../test/fixtures/collection-schema.js';
import { executeSearch } from '../src/search/execute-search.js';
import { parseSearchParams } from '../src/search/search-params.js';

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}
const size = Number(argument('size', '10000'));
const perKind = Number(argument('queries', '100'));
const rounds = Number(argument('rounds', '3'));
const withVariants = process.argv.includes('--variants');
const withLongQueries = process.argv.includes('--long-queries');
const cpuClock = process.argv.includes('--cpu');
const now = (): number => {
  if (!cpuClock) return performance.now();
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const articles = generateFixtureDocuments(size, { seed: 7 });
const engine = new SearchEngine(undefined);
engine.createCollection(fixtureCollectionSchema('articles'));
for (let i = 0; i < articles.length; i += 1000) {
  const lines = articles.slice(i, i + 1000).map(({ id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta }) =>
    JSON.stringify({ id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta }),
  );
  engine.importDocuments('articles', lines.join('\n'), 'upsert', false, false);
}
engine.get('articles')?.compact();

const variants: { name: string; extra: Record<string, string> }[] = [{ name: 'default', extra: {} }];
if (withVariants) {
  const { loadFixtureSearchSets } = await import('../test/fixtures/search-sets.js');
  const sets = loadFixtureSearchSets();
  const registry = (engine as unknown as { sets: { upsertSynonymSet(n: string, b: unknown): void; upsertCurationSet(n: string, b: unknown): void } }).sets;
  for (const set of sets.synonymSets) registry.upsertSynonymSet(set.name, { items: set.items });
  for (const set of sets.curationSets) registry.upsertCurationSet(set.name, { items: set.items });
  (engine as unknown as { patchCollection(n: string, b: unknown): void }).patchCollection('articles', {
    synonym_sets: sets.synonymSets.map((s) => s.name),
    curation_sets: sets.curationSets.map((s) => s.name),
  });
  variants[0] = { name: 'sets attached', extra: {} };
  variants.push({ name: 'sets off', extra: { enable_synonyms: 'false', enable_curations: 'false' } });
  variants.push({ name: 'facet_by=*', extra: { facet_by: '*' } });
  variants.push({ name: 'group_by=topic', extra: { group_by: 'topic', group_limit: '3' } });
}

const collection = engine.get('articles');
if (!collection) throw new Error('no collection');
const mix: { kind: string; params: Record<string, string | number> }[] = buildQueryMix(articles, perKind);
const longKinds = ['three words', 'hundred words', 'hundred-word passage'];
if (withLongQueries) {
  let state = 1234567;
  const random = (): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const wordsOf = (text: string): string[] => text.split(/\s+/).filter((w) => /^[A-Za-z]{3,}$/.test(w));
  const someWord = (): string => {
    const list = wordsOf(`${articles[Math.floor(random() * articles.length)]?.intro ?? ''}`);
    return list[Math.floor(random() * list.length)] ?? 'work';
  };
  const common = { query_by: 'title,headline,intro,content', highlight_full_fields: 'title,headline,intro,content', per_page: 12 };
  for (let i = 0; i < perKind; i++) {
    mix.push({ kind: 'three words', params: { ...common, q: Array.from({ length: 3 }, someWord).join(' ') } });
    mix.push({ kind: 'hundred words', params: { ...common, q: Array.from({ length: 100 }, someWord).join(' ') } });
    let passage: string[] = [];
    while (passage.length < 100) passage = articles[Math.floor(random() * articles.length)]?.content.split(/\s+/).filter(Boolean) ?? [];
    const start = Math.floor(random() * (passage.length - 99));
    mix.push({ kind: 'hundred-word passage', params: { ...common, q: passage.slice(start, start + 100).join(' ') } });
  }
}
const times = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const [index, query] of mix.entries()) {
    // Rotate which variant runs first, so warm caches favour none of them.
    const rotated = variants.map((_, i) => variants[(i + index) % variants.length] as (typeof variants)[number]);
    for (const variant of rotated) {
      const params = Object.fromEntries(Object.entries({ ...query.params, ...variant.extra }).map(([k, v]) => [k, String(v)]));
      const started = now();
      executeSearch(collection, parseSearchParams(params));
      const elapsed = now() - started;
      // `all` stays the standard mix (comparable with older builds' figures).
      for (const key of longKinds.includes(query.kind) ? [`${variant.name}|${query.kind}`] : [`${variant.name}|${query.kind}`, `${variant.name}|all`]) {
        const list = times.get(key) ?? [];
        list.push(elapsed);
        times.set(key, list);
      }
    }
  }
}
const pct = (list: number[], p: number): string => {
  const sorted = [...list].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number).toFixed(2);
};
console.log(`${size} articles, ${perKind} queries per kind, ${rounds} rounds, in-process executeSearch; p50 / p95 ms (${cpuClock ? 'CPU time' : 'wall time'})`);
const kinds = ['one word', 'two words, one typo', 'prefix', 'facets + filter', ...(withLongQueries ? longKinds : []), 'all'];
console.log(`| variant | ${kinds.join(' | ')} |`);
console.log(`|---|${kinds.map(() => '---').join('|')}|`);
for (const variant of variants) {
  console.log(`| ${variant.name} | ${kinds.map((k) => { const l = times.get(`${variant.name}|${k}`) ?? [0]; return `${pct(l, 50)} / ${pct(l, 95)}`; }).join(' | ')} |`);
}
