import { ApiError } from '../api-error.js';
import type { SearchEngine } from '../engine.js';

/** A routed answer: status and JSON body. */
export interface RoutedAnswer {
  status: number;
  body: unknown;
}

/** What the set routes need from the request. */
export interface SetRouteRequest {
  method: string;
  /** Decoded path segments. */
  segments: string[];
  query: Record<string, string>;
  /** Throws 401 unless the request carries the admin key. */
  requireAdmin(): void;
  /** Reads and parses the JSON body (400 `Bad JSON.` otherwise). */
  readJson(): Promise<unknown>;
}

function unsignedParam(query: Record<string, string>, key: 'limit' | 'offset'): number {
  const raw = query[key];
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw)) throw new ApiError(400, `${key === 'limit' ? 'Limit' : 'Offset'} param should be unsigned integer.`);
  return Number(raw);
}

/**
 * Typesense 30's set routes — `/synonym_sets[/:name[/items[/:id]]]`,
 * `/curation_sets[/:name[/items[/:id]]]` — and `PATCH /collections/:name`
 * (attaching sets). Returns undefined for any other request. All need the admin key.
 */
export async function routeSetRequest(engine: SearchEngine, request: SetRouteRequest): Promise<RoutedAnswer | undefined> {
  const { method, segments, query } = request;
  const [kind, name, itemsSegment, id, extra] = segments;
  if (kind === 'collections' && method === 'PATCH' && segments.length === 2 && name !== undefined) {
    request.requireAdmin();
    return { status: 200, body: engine.patchCollection(name, await request.readJson()) };
  }
  if (kind !== 'synonym_sets' && kind !== 'curation_sets') return undefined;
  if (extra !== undefined || (itemsSegment !== undefined && itemsSegment !== 'items')) return undefined;
  const sets = engine.sets;
  const synonyms = kind === 'synonym_sets';

  if (name === undefined) {
    if (method !== 'GET') return undefined;
    request.requireAdmin();
    return { status: 200, body: synonyms ? sets.listSynonymSets() : sets.listCurationSets() };
  }
  if (itemsSegment === undefined) {
    if (method === 'GET') {
      request.requireAdmin();
      return { status: 200, body: synonyms ? sets.synonymSetView(name) : sets.curationSetView(name) };
    }
    if (method === 'PUT') {
      request.requireAdmin();
      const body = await request.readJson();
      return { status: 200, body: synonyms ? sets.upsertSynonymSet(name, body) : sets.upsertCurationSet(name, body) };
    }
    if (method === 'DELETE') {
      request.requireAdmin();
      return { status: 200, body: synonyms ? sets.deleteSynonymSet(name) : sets.deleteCurationSet(name) };
    }
    return undefined;
  }
  if (id === undefined) {
    if (method !== 'GET') return undefined;
    request.requireAdmin();
    const limit = unsignedParam(query, 'limit');
    const offset = unsignedParam(query, 'offset');
    return { status: 200, body: synonyms ? sets.synonymItems(name, limit, offset) : sets.curationItems(name, limit, offset) };
  }
  if (method === 'GET') {
    request.requireAdmin();
    return { status: 200, body: synonyms ? sets.synonymItem(name, id) : sets.curationItem(name, id) };
  }
  if (method === 'PUT') {
    request.requireAdmin();
    const body = await request.readJson();
    return { status: 200, body: synonyms ? sets.upsertSynonymItem(name, id, body) : sets.upsertCurationItem(name, id, body) };
  }
  if (method === 'DELETE') {
    request.requireAdmin();
    return { status: 200, body: synonyms ? sets.deleteSynonymItem(name, id) : sets.deleteCurationItem(name, id) };
  }
  return undefined;
}
