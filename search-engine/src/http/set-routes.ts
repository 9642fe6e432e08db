import { ApiError } from '../api-error.js';
import type { SetReadOperation, SetWriteOperation } from '../sets/set-registry.js';

/** A routed answer: status and JSON body. */
export interface RoutedAnswer {
  status: number;
  body: unknown;
}

/**
 * How the routes reach the sets: on the search server, reads go to one worker and
 * changes go through the worker pool as writes (the writer applies and persists
 * them once, then every reader worker applies the same call).
 */
export interface SetOperations {
  read(operation: SetReadOperation, args: unknown[]): Promise<unknown>;
  write(operation: SetWriteOperation, args: unknown[]): Promise<unknown>;
  /** `SearchEngine.patchCollection`, as a write. */
  patchCollection(name: string, body: unknown): Promise<unknown>;
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
 * (attaching sets, altering the schema's `fields`). Returns undefined for any other request. All need the admin key.
 */
export async function routeSetRequest(sets: SetOperations, request: SetRouteRequest): Promise<RoutedAnswer | undefined> {
  const { method, segments, query } = request;
  const [kind, name, itemsSegment, id, extra] = segments;
  if (kind === 'collections' && method === 'PATCH' && segments.length === 2 && name !== undefined) {
    request.requireAdmin();
    return { status: 200, body: await sets.patchCollection(name, await request.readJson()) };
  }
  if (kind !== 'synonym_sets' && kind !== 'curation_sets') return undefined;
  if (extra !== undefined || (itemsSegment !== undefined && itemsSegment !== 'items')) return undefined;
  const synonyms = kind === 'synonym_sets';

  if (name === undefined) {
    if (method !== 'GET') return undefined;
    request.requireAdmin();
    return { status: 200, body: await (synonyms ? sets.read('listSynonymSets', []) : sets.read('listCurationSets', [])) };
  }
  if (itemsSegment === undefined) {
    if (method === 'GET') {
      request.requireAdmin();
      return { status: 200, body: await (synonyms ? sets.read('synonymSetView', [name]) : sets.read('curationSetView', [name])) };
    }
    if (method === 'PUT') {
      request.requireAdmin();
      const body = await request.readJson();
      return { status: 200, body: await (synonyms ? sets.write('upsertSynonymSet', [name, body]) : sets.write('upsertCurationSet', [name, body])) };
    }
    if (method === 'DELETE') {
      request.requireAdmin();
      return { status: 200, body: await (synonyms ? sets.write('deleteSynonymSet', [name]) : sets.write('deleteCurationSet', [name])) };
    }
    return undefined;
  }
  if (id === undefined) {
    if (method !== 'GET') return undefined;
    request.requireAdmin();
    const limit = unsignedParam(query, 'limit');
    const offset = unsignedParam(query, 'offset');
    return { status: 200, body: await (synonyms ? sets.read('synonymItems', [name, limit, offset]) : sets.read('curationItems', [name, limit, offset])) };
  }
  if (method === 'GET') {
    request.requireAdmin();
    return { status: 200, body: await (synonyms ? sets.read('synonymItem', [name, id]) : sets.read('curationItem', [name, id])) };
  }
  if (method === 'PUT') {
    request.requireAdmin();
    const body = await request.readJson();
    return { status: 200, body: await (synonyms ? sets.write('upsertSynonymItem', [name, id, body]) : sets.write('upsertCurationItem', [name, id, body])) };
  }
  if (method === 'DELETE') {
    request.requireAdmin();
    return { status: 200, body: await (synonyms ? sets.write('deleteSynonymItem', [name, id]) : sets.write('deleteCurationItem', [name, id])) };
  }
  return undefined;
}
