import type { SearchClient } from 'instantsearch.js';
import type { InstantSearchServerState } from 'react-instantsearch';
import { SEARCH_CACHE_SECONDS } from 'contracts';
import { canonicalJson } from './earlySearch.js';
import type { IndexVersionReader } from './indexVersion.js';

/** The index version a server render's answers are of, and the reader of the current one. */
export interface ServerAnswersVersion {
  /** The version the server rendered with (`SearchListServerState.indexVersion`). */
  rendered: string;
  /** The list client's reader (`SearchSetup.indexVersion`). */
  reader: IndexVersionReader;
}

/**
 * Parameters InstantSearch's insights middleware adds to every search once it starts (Algolia's
 * click analytics). The search server reads neither, so a search that differs only in them has
 * the server's answer.
 */
export const ANSWER_NEUTRAL_PARAMETERS: readonly string[] = ['clickAnalytics', 'userToken'];

/** One request of InstantSearch's `search(requests)`. */
interface InstantSearchRequest {
  indexName: string;
  params?: Record<string, unknown>;
}

/** The requests as one comparable text, without the answer-neutral parameters. */
function requestsKey(requests: readonly InstantSearchRequest[]): string {
  return canonicalJson(
    requests.map(({ indexName, params = {} }) => ({
      indexName,
      params: Object.fromEntries(Object.entries(params).filter(([name]) => !ANSWER_NEUTRAL_PARAMETERS.includes(name))),
    })),
  );
}

/**
 * The list's search client, hydrated with the server render's answers (as Algolia's
 * `hydrateSearchClient` fills its client's cache): a search for exactly the requests the server
 * sent is answered with the server's answer, without a request. Hydrating under
 * `InstantSearchSSRProvider` reuses that answer for the first render, but InstantSearch may search
 * the same state again at once: the insights middleware does at its start (with consent), adding
 * only `clickAnalytics` and `userToken`. Without this that search went to the server: one more
 * request, a loading state while the visitor's first action was replayed, and a ranking that could
 * differ from the server's cached one (new "Hits Viewed" events for hits the page never showed).
 * The answers count as fresh for `SEARCH_CACHE_SECONDS` (the client's own cache lifetime), and,
 * with `version`, only while the index version is still the one they were rendered with (a page
 * open since before a publish searches again).
 * @param client  The list's search client.
 * @param initialResults  The server render's answers (`getServerState`'s `initialResults`).
 * @param now  Clock (tests). Default `Date.now`.
 * @param version  The rendered index version and the current one's reader. Default: none (no version check).
 */
export function withServerAnswers(
  client: SearchClient,
  initialResults: InstantSearchServerState['initialResults'] | undefined,
  now: () => number = Date.now,
  version?: ServerAnswersVersion,
): SearchClient {
  const answers = new Map<string, unknown[]>();
  for (const { state, results, requestParams } of Object.values(initialResults ?? {})) {
    if (!state?.index || !results || !requestParams || results.length !== requestParams.length) continue;
    answers.set(requestsKey(requestParams.map((params) => ({ indexName: state.index!, params: params as Record<string, unknown> }))), results);
  }
  if (answers.size === 0) return client;
  const freshUntil = now() + SEARCH_CACHE_SECONDS * 1000;
  const search = (async (requests: InstantSearchRequest[]) => {
    const answer = now() <= freshUntil ? answers.get(requestsKey(requests)) : undefined;
    const current = answer && version ? (await version.reader.current()) === version.rendered : true;
    // A copy each time: InstantSearch keeps (and may change) the answers it is given.
    return answer && current ? { results: structuredClone(answer) } : client.search(requests as never);
  }) as SearchClient['search'];
  return { ...client, search } as SearchClient;
}
