/**
 * The first search of the bound list, sent by the binding before the full island is there: the
 * search server's answer arrives while React and InstantSearch load and hydrate, and the full
 * island's first search for that query takes it instead of asking again (one search per debounce
 * window, as when hydrated). Framework-free and adapter-free: it is part of the binding's chunk.
 *
 * How the binding knows what the adapter would send: the server's render records each Typesense
 * search it sent in that answer's `metadata` (InstantSearch `results.userData`), so the browser
 * gets the exact searches of the page's state; the binding swaps the typed query in. The full
 * island's client takes an early answer only for exactly the searches it sends itself (compared
 * as canonical JSON), so a template the adapter would not send just costs one unused request.
 */
import { SEARCH_INPUT_MAX_LENGTH } from 'contracts';
import type { SearchServerSettings } from './searchServerSettings.js';
import type { TypesenseMultiSearchResponse } from './snippetOnlyFields.js';

/** Key in a server answer's `metadata` (InstantSearch `results.userData`) holding the Typesense search it answers. */
export const RECORDED_SEARCH_KEY = 'khsRecordedSearch';

/** How long an early search may take before the full island searches itself (the typesense client's own deadline is longer). */
export const EARLY_SEARCH_TIMEOUT_MS = 3000;

/** One Typesense search of a `multi_search` body, as the adapter builds it. */
export type TypesenseSearch = Record<string, unknown>;

/** JSON with object keys sorted: two searches with the same parameters give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, entry]) => entry !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The searches the server sent for the page's list, from its answers' `userData` (recorded by a
 * server client, `SearchTransport.recordSearches`); `null` when an answer lacks its search or
 * the list was not on page 1 (a new query starts at page 1: only that template fits).
 */
export function recordedSearches(answers: ReadonlyArray<{ userData?: unknown }> | undefined): TypesenseSearch[] | null {
  if (!answers?.length) return null;
  const searches: TypesenseSearch[] = [];
  for (const answer of answers) {
    const entries = Array.isArray(answer.userData) ? (answer.userData as unknown[]) : [];
    const recorded = entries.map((entry) => (entry as Record<string, unknown> | null)?.[RECORDED_SEARCH_KEY]).find((search) => search && typeof search === 'object');
    if (!recorded) return null;
    const search = recorded as TypesenseSearch;
    if (search.page !== undefined && search.page !== 1) return null;
    searches.push(search);
  }
  return searches;
}

/** The template's searches for another query, as InstantSearch and the adapter would send them (`*` for an empty query). */
export function searchesForQuery(template: readonly TypesenseSearch[], typed: string): TypesenseSearch[] {
  const query = typed.length > SEARCH_INPUT_MAX_LENGTH ? typed.slice(0, SEARCH_INPUT_MAX_LENGTH) : typed;
  return template.map((search) => ({ ...search, q: query === '' ? '*' : query }));
}

/** Answers fetched early, each taken once by the first identical search of the full island. */
export interface EarlyAnswers {
  put(searches: readonly TypesenseSearch[], answer: Promise<TypesenseMultiSearchResponse | null>): void;
  /** The early answer for exactly these searches (`null` inside: it failed, search normally), once. */
  take(searches: readonly TypesenseSearch[]): Promise<TypesenseMultiSearchResponse | null> | undefined;
  /** How many were put (sent). */
  readonly sent: number;
}

export function createEarlyAnswers(): EarlyAnswers {
  const answers = new Map<string, Promise<TypesenseMultiSearchResponse | null>>();
  let sent = 0;
  return {
    put(searches, answer) {
      sent += 1;
      answers.set(canonicalJson(searches), answer);
    },
    take(searches) {
      const key = canonicalJson(searches);
      const answer = answers.get(key);
      answers.delete(key);
      return answer;
    },
    get sent() {
      return sent;
    },
  };
}

/**
 * Sends the searches as the typesense client does for a browser (`multi_search`, the key as a
 * query parameter, a `text/plain` body, so no CORS preflight). Resolves `null` on any failure or
 * refusal: the full island then searches itself and handles it as usual.
 */
export async function fetchEarlyAnswer(settings: SearchServerSettings, searches: readonly TypesenseSearch[], fetchImpl: typeof fetch = fetch): Promise<TypesenseMultiSearchResponse | null> {
  try {
    // One try, at the node the island's client starts at (the nearest one, else the first): on any
    // failure the island searches itself, with the client's failover over every node.
    const node = settings.nearestNode ?? settings.nodes[0]!;
    const url = new URL(`${node.protocol}://${node.host}:${node.port}${node.path ?? ''}/multi_search`);
    url.searchParams.set('x-typesense-api-key', settings.apiKey);
    // The client joins array parameters with commas (its `normalizeArrayableParams`).
    const body = searches.map((search) => Object.fromEntries(Object.entries(search).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : value])));
    // The full island's first search waits for this answer: a server that does not answer soon is left to it.
    const response = await fetchImpl(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ searches: body }), signal: AbortSignal.timeout(EARLY_SEARCH_TIMEOUT_MS) });
    if (!response.ok) return null;
    const answer = (await response.json()) as TypesenseMultiSearchResponse;
    // A search of the batch that failed comes back as an entry with an error code: the island handles it.
    return Array.isArray(answer?.results) && answer.results.every((result) => !(result as { code?: unknown }).code) ? answer : null;
  } catch {
    return null;
  }
}
