import type { SearchClient } from 'instantsearch.js';
import type { InstantSearchServerState } from 'react-instantsearch';

/** One request of InstantSearch's `search(requests)`. */
interface ListRequest {
  indexName: string;
  params?: { query?: string } & Record<string, unknown>;
}

/** One index's entry of `initialResults`, as `getServerState` builds it. */
interface InitialResult {
  state: { query?: string } & Record<string, unknown>;
  results: unknown[];
  requestParams?: unknown[];
}

/**
 * What InstantSearch sent for one list render and the state it kept, for a search shape: the
 * address's UI state without its query (refinements, page), the island's props. Every search of
 * that shape sends the same requests with another query (`withQuery`).
 */
export interface ListSearchTemplate {
  indexId: string;
  /** The requests, with the recorded query. */
  requests: ListRequest[];
  /** `initialResults[indexId].state`, with the recorded query. */
  state: InitialResult['state'];
  /** The query the requests and state were recorded with ('' for none). */
  query: string;
}

/** A search client that keeps a copy of each `search(requests)` call's requests. */
export function recordingSearchClient(client: SearchClient): { searchClient: SearchClient; calls: ListRequest[][] } {
  const calls: ListRequest[][] = [];
  const search = ((requests: ListRequest[]) => {
    calls.push(structuredClone(requests));
    return client.search(requests as never);
  }) as SearchClient['search'];
  return { searchClient: { ...client, search } as SearchClient, calls };
}

/** A request's query as InstantSearch writes it: absent or '' for none. */
const requestQuery = (request: ListRequest) => request.params?.query ?? '';

/**
 * The template of a render that ran InstantSearch's two passes (`getServerState`), or undefined
 * when that render does not fit the one shape this module can replay exactly: one index, one
 * search call whose requests are the ones `initialResults` names, and the query in exactly the
 * places `withQuery` writes it (each request's `query` and the state's).
 * @param serverState  `getServerState`'s answer.
 * @param calls  The search calls InstantSearch made for it (`recordingSearchClient`).
 * @param query  The query of the address's UI state ('' for none).
 */
export function listSearchTemplate(serverState: InstantSearchServerState, calls: ListRequest[][], query: string): ListSearchTemplate | undefined {
  const entries = Object.entries(serverState.initialResults) as Array<[string, InitialResult & Record<string, unknown>]>;
  if (entries.length !== 1 || calls.length !== 1) return undefined;
  const [indexId, entry] = entries[0]!;
  const requests = calls[0]!;
  if (Object.keys(entry).join() !== 'state,results,requestParams') return undefined;
  if (JSON.stringify(entry.requestParams) !== JSON.stringify(requests.map((request) => request.params))) return undefined;
  if ((entry.state.query ?? '') !== query || requests.some((request) => requestQuery(request) !== query)) return undefined;
  return { indexId, requests, state: structuredClone(entry.state), query };
}

/**
 * The server state of a search of the template's shape for `query`, from one search call and no
 * render: the template's requests with `query`, sent through `client` (the same client, so the
 * same answers and what they record), and `initialResults` as `getServerState` builds it.
 */
export async function serverStateFromTemplate(template: ListSearchTemplate, query: string, client: SearchClient): Promise<InstantSearchServerState> {
  const withQuery = <T extends { query?: string }>(value: T): T => (template.query === '' && query === '' ? value : { ...value, query });
  const requests = template.requests.map((request) => ({ ...request, params: withQuery(request.params ?? {}) }));
  const answer = (await client.search(requests as never)) as unknown as { results: unknown[] };
  const entry: InitialResult = { state: withQuery(template.state), results: answer.results, requestParams: requests.map((request) => request.params) };
  return { initialResults: { [template.indexId]: entry } } as unknown as InstantSearchServerState;
}

/** Templates by shape key, the oldest dropped past `maxEntries`. */
export function createListSearchTemplates(maxEntries: number) {
  const templates = new Map<string, ListSearchTemplate>();
  return {
    get: (key: string) => templates.get(key),
    clear: () => templates.clear(),
    set(key: string, template: ListSearchTemplate) {
      templates.delete(key);
      templates.set(key, template);
      while (templates.size > maxEntries) templates.delete(templates.keys().next().value!);
    },
  };
}
