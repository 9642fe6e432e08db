import type { SearchClient } from 'instantsearch.js';
import { teaserHighlights } from '../hits/teaserFields.js';

/**
 * The fields whose highlight a teaser may read (`hits/teaserFields.ts`: the headline or title and
 * the intro; besides, the long text's snippet). The adapter builds `_highlightResult` and
 * `_snippetResult` for every field of the document, each with its matched words, and
 * `_rawTypesenseHit` and `text_match_info` as well: with them an answer of 20 hits is about 110 KB,
 * which the server render sends again in the page as the hydrating island's state. A list hit
 * keeps of them only what its teaser shows (`teaserHighlights`; mf-search/README.md, "What a
 * search page costs the shell").
 */
export const LIST_HIGHLIGHTED_FIELDS: readonly string[] = ['headline', 'title', 'intro'];

/** Per-hit fields of the adapter's answer that the list never reads. */
export const LIST_HIT_UNREAD_FIELDS: readonly string[] = ['_rawTypesenseHit', 'text_match_info', 'text_match'];

/** Rebuilt by `teaserHighlights` with only what the teaser reads. */
const HIGHLIGHT_KEYS: readonly string[] = ['_highlightResult', '_snippetResult'];

type Hit = Record<string, unknown>;

/** One hit with only what the list reads: the document's fields and the teaser's highlights. */
export function compactListHit(hit: Hit): Hit {
  const compact: Hit = {};
  for (const [key, value] of Object.entries(hit)) {
    if (!LIST_HIT_UNREAD_FIELDS.includes(key) && !HIGHLIGHT_KEYS.includes(key)) compact[key] = value;
  }
  return { ...compact, ...teaserHighlights(hit, LIST_HIGHLIGHTED_FIELDS) };
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
