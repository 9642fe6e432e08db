import { ApiError } from '../api-error.js';
import type { AnalyticsOperation, NotedSearch } from '../analytics/analytics-manager.js';
import type { SearchOutcome } from '../pool/worker-pool.js';
import type { RoutedAnswer } from './set-routes.js';

/** How the analytics routes reach the writer's analytics and the flusher. */
export interface AnalyticsOperations {
  call(operation: AnalyticsOperation, args: unknown[]): Promise<unknown>;
  /** Runs a flush now and waits for it (`AnalyticsFlusher.flush`). */
  flush(): Promise<unknown>;
}

/** What the analytics routes need from the request. */
export interface AnalyticsRouteRequest {
  method: string;
  /** Decoded path segments. */
  segments: string[];
  query: Record<string, string>;
  /** Where the request came from (events are rate-limited per address, as in Typesense). */
  clientAddress: string;
  /** Throws 401 unless the request carries the admin key. */
  requireAdmin(): void;
  /** Reads and parses the JSON body (400 `Bad JSON.` otherwise). */
  readJson(): Promise<unknown>;
}

function requiredParam(query: Record<string, string>, name: string): string {
  const value = query[name];
  if (value === undefined || value === '') throw new ApiError(400, `Missing required parameter '${name}'.`);
  return value;
}

/**
 * Typesense 30's analytics routes: `GET|POST /analytics/rules`, `GET|PUT|DELETE
 * /analytics/rules/:name`, `POST|GET /analytics/events`, `POST /analytics/flush`, `GET
 * /analytics/status`. Returns undefined for any other request. All need the admin key: this
 * server's other keys may only search, and Typesense asks for an `analytics…` action here.
 */
export async function routeAnalyticsRequest(analytics: AnalyticsOperations, request: AnalyticsRouteRequest): Promise<RoutedAnswer | undefined> {
  const { method, segments, query } = request;
  const [root, resource, name, extra] = segments;
  if (root !== 'analytics' || extra !== undefined) return undefined;
  const ok = (body: unknown): RoutedAnswer => ({ status: 200, body });

  if (resource === 'rules' && name === undefined) {
    if (method === 'GET') {
      request.requireAdmin();
      return ok(await analytics.call('listRules', [query.rule_tag ?? '']));
    }
    if (method === 'POST') {
      request.requireAdmin();
      return ok(await analytics.call('createRules', [await request.readJson()]));
    }
    return undefined;
  }
  if (resource === 'rules' && name !== undefined) {
    if (method === 'GET') {
      request.requireAdmin();
      return ok(await analytics.call('getRule', [name]));
    }
    if (method === 'PUT') {
      request.requireAdmin();
      return ok(await analytics.call('upsertRule', [name, await request.readJson()]));
    }
    if (method === 'DELETE') {
      request.requireAdmin();
      return ok(await analytics.call('deleteRule', [name]));
    }
    return undefined;
  }
  if (name !== undefined) return undefined;
  if (resource === 'events' && method === 'POST') {
    request.requireAdmin();
    return ok(await analytics.call('addEvent', [request.clientAddress, await request.readJson()]));
  }
  if (resource === 'events' && method === 'GET') {
    request.requireAdmin();
    const userId = requiredParam(query, 'user_id');
    const ruleName = requiredParam(query, 'name');
    const n = requiredParam(query, 'n');
    if (!/^\d{1,9}$/.test(n)) throw new ApiError(400, "Parameter 'n' must be an unsigned integer.");
    return ok(await analytics.call('getEvents', [userId, ruleName, Number(n)]));
  }
  if (resource === 'flush' && method === 'POST') {
    request.requireAdmin();
    await analytics.flush();
    return ok({ ok: true });
  }
  if (resource === 'status' && method === 'GET') {
    request.requireAdmin();
    return ok(await analytics.call('status', []));
  }
  return undefined;
}

/**
 * The searches of one request as the writer's analytics receive them: each answered search's note
 * with who searched — `x-typesense-user-id` (header, else query parameter), else the client's
 * address, as Typesense does — and when.
 */
export function notedSearches(outcomes: SearchOutcome[], userId: string): NotedSearch[] {
  const timestampUs = Date.now() * 1000;
  const noted: NotedSearch[] = [];
  for (const outcome of outcomes) if (outcome.ok && outcome.note) noted.push({ ...outcome.note, userId, timestampUs });
  return noted;
}
