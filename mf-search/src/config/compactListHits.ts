import type { SearchClient } from 'instantsearch.js';

/**
 * What a list hit keeps of the adapter's highlight objects: the attributes the teaser reads
 * (`hits/teaserFields.ts`: the headline or title and the intro highlighted, the long text's
 * snippet). The adapter builds `_highlightResult` and `_snippetResult` for every field of the
 * document, and `_rawTypesenseHit` and `text_match_info` as well: with them an answer of 20 hits
 * is about 110 KB, which the server render sends again in the page as the hydrating island's state
 * (about 5 times an article page's bytes, the search page's main cost under load).
 */
export const LIST_HIT_HIGHLIGHTS = {
  _highlightResult: ['headline', 'title', 'intro'],
  _snippetResult: ['content'],
} as const;

/** Per-hit fields of the adapter's answer that the list never reads. */
export const LIST_HIT_UNREAD_FIELDS: readonly string[] = ['_rawTypesenseHit', 'text_match_info', 'text_match'];

type Hit = Record<string, unknown>;

function pick(record: unknown, keys: readonly string[]): Record<string, unknown> | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const kept: Record<string, unknown> = {};
  for (const key of keys) if (key in record) kept[key] = (record as Record<string, unknown>)[key];
  return kept;
}

/** One hit with only what the list reads: the document's fields and the teaser's highlights. */
export function compactListHit(hit: Hit): Hit {
  const compact: Hit = {};
  for (const [key, value] of Object.entries(hit)) {
    if (LIST_HIT_UNREAD_FIELDS.includes(key)) continue;
    const highlights = LIST_HIT_HIGHLIGHTS[key as keyof typeof LIST_HIT_HIGHLIGHTS];
    compact[key] = highlights ? pick(value, highlights) : value;
  }
  return compact;
}

interface SearchAnswer {
  results: Array<{ hits?: Hit[] } & Record<string, unknown>>;
}

/**
 * The list's search client with compact hits (`compactListHit`), the same in the server render and
 * in the browser: the server's answers (the island state, `serverAnswers.ts`) and the browser's own
 * searches carry the same fields, so hydration renders what the server rendered.
 */
export function withCompactListHits<Client extends Pick<SearchClient, 'search'>>(client: Client): Client {
  const search = client.search.bind(client) as unknown as (requests: unknown) => Promise<SearchAnswer>;
  const compactSearch = async (requests: unknown) => {
    const answer = await search(requests);
    return {
      ...answer,
      results: answer.results.map((result) => (Array.isArray(result.hits) ? { ...result, hits: result.hits.map(compactListHit) } : result)),
    };
  };
  // In place, as `searchForFacetValues` is wrapped: the adapter's client is a plain object.
  client.search = compactSearch as unknown as Client['search'];
  return client;
}
