import { prng } from './bench-support.js';

/** The fields the product's search UI queries, as the adapter sends them. */
export const QUERY_BY = 'title,headline,intro,content';

export interface BenchArticle {
  title: string;
  topic: string[];
  date: number;
}

/** One benchmark query: its class and the Typesense search parameters. */
export interface BenchQuery {
  kind: 'one word' | 'two words, one typo' | 'prefix' | 'facets + filter';
  params: Record<string, string | number>;
}

function titleWords(article: BenchArticle): string[] {
  return article.title
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^a-z]/g, ''))
    .filter((w) => w.length >= 5);
}

/** Swaps two neighbouring letters in the middle of a word: one typo for Typesense. */
function withTypo(word: string, random: () => number): string {
  const i = 1 + Math.floor(random() * (word.length - 3));
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

/**
 * The benchmark's query mix, drawn from the corpus titles with a fixed seed:
 * one word, two words with a typo, the prefix of a word, and a query with
 * facets and a filter (as the search list screen sends them).
 */
export function buildQueryMix(articles: BenchArticle[], perKind: number, seed = 42): BenchQuery[] {
  const random = prng(seed);
  const pick = (): BenchArticle => articles[Math.floor(random() * articles.length)] as BenchArticle;
  const common = { query_by: QUERY_BY, highlight_full_fields: QUERY_BY, per_page: 12 };
  const dates = articles.map((a) => a.date).sort((a, b) => a - b);
  const medianDate = dates[Math.floor(dates.length / 2)] ?? 0;
  const queries: BenchQuery[] = [];
  for (let i = 0; i < perKind; i++) {
    let words = titleWords(pick());
    while (words.length < 2) words = titleWords(pick());
    const [first, second] = [words[0] as string, words[1] as string];
    queries.push({ kind: 'one word', params: { ...common, q: first } });
    queries.push({ kind: 'two words, one typo', params: { ...common, q: `${first} ${withTypo(second, random)}` } });
    queries.push({ kind: 'prefix', params: { ...common, q: second.slice(0, 3 + Math.floor(random() * 3)) } });
    const topic = pick().topic[0] ?? '';
    queries.push({
      kind: 'facets + filter',
      params: { ...common, q: first, facet_by: 'topic', max_facet_values: 10, filter_by: `topic:=[\`${topic}\`] && date:>=${medianDate}` },
    });
  }
  return queries;
}
