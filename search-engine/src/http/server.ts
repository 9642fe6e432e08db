import { mkdtempSync, rmSync } from 'node:fs';
import { nestsDeeperThan, TOO_DEEPLY_NESTED } from '../json-depth.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../api-error.js';
import { type SearchTask, WorkerPool } from '../pool/worker-pool.js';
import type { WorkerMemory } from '../pool/worker-protocol.js';
import { threadCpuMs } from '../pool/thread-cpu.js';
import { type KeyAccess, resolveKey } from './auth.js';
import { allowedRequestOrigin, normalizeOrigin, requestSender, routeKind } from './browser-origins.js';
import { checkHitsPerRequest, checkSearchParams, DEFAULT_REQUEST_LIMITS, multiSearchLimit, type RequestLimits } from './limits.js';
import { mergeSearchParams, planMultiSearch, type UnionRequest } from '../search/multi-search.js';
import { ACCEPTED_REQUEST_CODING, bodyDeadline, DEFAULT_BODY_TIMEOUT_MS, hasCodedBody, startBodyDeadline, unsupportedCoding } from './request-body.js';
import { routeSetRequest, type SetOperations } from './set-routes.js';
import { notedSearches, routeAnalyticsRequest } from './analytics-routes.js';
import { AnalyticsFlusher, DEFAULT_ANALYTICS_FLUSH_INTERVAL_MS } from '../analytics/analytics-flusher.js';
import { metricsText, presentedToken } from '@khs/observability';
import { observeSearchRequest, recordSearchQueries, watchPool } from './metrics.js';

/** Options of `startSearchServer`. */
export interface SearchServerOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port; default 8108; 0 picks any free port. */
  port?: number;
  /** Persistence folder; undefined keeps the data in a temporary folder removed on close. */
  dataDir?: string;
  /** Key with full access. */
  adminApiKey: string;
  /** Keys that may only search (and parent scoped keys). Default none. */
  searchOnlyApiKeys?: string[];
  /** Largest accepted request body of writes (imports). Default 64 MiB. */
  bodyLimitBytes?: number;
  /** How long a request body may take to arrive after its headers (then 408, connection closed). Default 10 s. */
  bodyTimeoutMs?: number;
  /** Search worker threads (each holds a copy of the index). Default: the number of cores. */
  workers?: number;
  /** Searches that may wait for a worker before requests get 503. Default 200. */
  queueLimit?: number;
  /** CPU time (of its worker thread, not wall-clock time) one search may use before its slot gets a 408 error (and its worker is replaced). Default 2000 ms. */
  searchBudgetMs?: number;
  /** Bounds on one request (see `RequestLimits`); missing fields take the defaults. */
  limits?: Partial<RequestLimits>;
  /** Each search worker's V8 young generation in MB. Default `DEFAULT_WORKER_YOUNG_GENERATION_MB`. */
  workerYoungGenerationMb?: number;
  /**
   * Origins of the pages that may read search answers (CORS on the two search routes and their
   * preflights): the site's and the remotes' standalone pages. Their searches are answered with any
   * valid key, the admin key included (as Typesense with `--enable-cors`). Requests a browser sends
   * from any other origin are refused on every admin route and may not use the admin key. Default
   * none: no page may read answers across origins; server-to-server calls are unaffected.
   */
  allowedOrigins?: readonly string[];
  /**
   * Refuse the admin key from every web page, allowed origins included (`SEARCH_REFUSE_ADMIN_KEY_FROM_PAGES`):
   * the site's own stack sets it, its pages search with the search-only key. Default false.
   */
  refuseAdminKeyFromPages?: boolean;
  /**
   * Answer the admin routes (collections, documents, sets…) to pages of the allowed origins, with
   * CORS (`SEARCH_ADMIN_ROUTES_FROM_ALLOWED_ORIGINS`): for a browser tool that manages collections.
   * Pages of other origins stay refused. Default false: every admin route refuses every web page.
   */
  adminRoutesFromAllowedOrigins?: boolean;
  /** Receives one line per notable event. Default: nothing is logged. */
  log?: (msg: string) => void;
  /** How often analytics are flushed into collections (Typesense's `analytics-flush-interval`). Default 1 hour. */
  analyticsFlushIntervalMs?: number;
  /** Analytics events one client address may post per minute (Typesense's `analytics-minute-rate-limit`). Default 0: no limit. */
  analyticsMinuteRateLimit?: number;
}

/** Counters of a running server (also served at `GET /stats.json` to the admin key). */
export interface SearchServerStats {
  requests: number;
  /** Responses by status code. */
  responses: Record<string, number>;
  /** Responses with status ≥ 500 and internal errors. */
  errors: number;
  /** Request bodies the client stopped sending. */
  abortedUploads: number;
  searches: number;
  searchTimeouts: number;
  rejectedBusy: number;
  workerRestarts: number;
  workers: number;
  queued: number;
  /** Per ready worker: its V8 heap and array buffers (only in `GET /stats.json`). */
  workerMemory?: WorkerMemory[];
  /** The server process's resident memory and its HTTP thread's V8 heap, MB (only in `GET /stats.json`). */
  serverMemory?: ServerMemory;
}

/** The server process as a whole (RSS) and its HTTP thread's own V8 heap and CPU time. */
export interface ServerMemory {
  rssMb: number;
  httpHeapUsedMb: number;
  httpHeapTotalMb: number;
  /** CPU time the HTTP thread used since the process started, ms (`threadCpuMs`). */
  httpCpuMs: number;
}

function serverMemory(): ServerMemory {
  const usage = process.memoryUsage();
  const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
  return { rssMb: mb(usage.rss), httpHeapUsedMb: mb(usage.heapUsed), httpHeapTotalMb: mb(usage.heapTotal), httpCpuMs: threadCpuMs() };
}

/** A running search server. */
export interface RunningSearchServer {
  /** Base URL, e.g. `http://127.0.0.1:8108`. */
  url: string;
  port: number;
  stats(): SearchServerStats;
  /** Stops listening, folds the change logs into snapshots and stops the workers. */
  close(): Promise<void>;
}

const DEFAULT_BODY_LIMIT = 64 * 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';
const FORBIDDEN = 'Forbidden - a valid `x-typesense-api-key` header must be sent.';
const FOREIGN_ADMIN_REQUEST = 'Forbidden - this route does not answer requests a browser sent from a web page; only searches do.';
const ADMIN_KEY_FROM_BROWSER = 'Forbidden - the admin key is not accepted from a web page; browsers search with a search-only key.';
const CROSS_ORIGIN_REFUSED = 'Forbidden - cross-origin requests are answered only for searches from the allowed origins (SEARCH_ALLOWED_ORIGINS).';
/** Headers a search page may send across origins (the typesense client's). */
const CORS_ALLOWED_HEADERS = 'content-type, x-typesense-api-key';
const SEARCH_CORS_METHODS = 'GET, POST, OPTIONS';
/** The methods of the admin routes, for a page of an allowed origin when `adminRoutesFromAllowedOrigins` is on. */
const ADMIN_CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** Most bytes of a refused body read and dropped before the connection is cut. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
const IMPORT_ACTIONS = new Set(['create', 'upsert', 'update', 'emplace']);
const RESULTS_OPEN = Buffer.from('{"results":[');
const RESULTS_CLOSE = Buffer.from(']}');
const COMMA = Buffer.from(',');

/** The client went away while sending its body; nothing to answer. */
class ClientAbort extends Error {
  constructor(readonly receivedBytes: number) {
    super('client aborted the request');
  }
}

function sendText(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  const headers: Record<string, string | number> = { 'content-type': type, 'content-length': Buffer.byteLength(body) };
  if (status === 503) headers['retry-after'] = '1';
  res.writeHead(status, headers);
  res.end(body);
}

/** Writes bytes as they are (a search answer encoded by its worker). */
function sendBytes(res: ServerResponse, status: number, body: Uint8Array, type = JSON_TYPE): void {
  res.writeHead(status, { 'content-type': type, 'content-length': body.byteLength });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body), JSON_TYPE);
}

/**
 * Reads the body up to `limit` bytes; throws ApiError(413) beyond it, ApiError(408) when its
 * deadline passes first (`startBodyDeadline`) and ClientAbort if the client leaves.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > limit) {
      reject(new ApiError(413, `Request body is too large (limit ${limit} bytes).`));
      return;
    }
    const deadline = bodyDeadline(req);
    if (deadline?.aborted) {
      reject(deadline.reason as Error);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const onDeadline = (): void => settle(deadline?.reason as Error);
    deadline?.addEventListener('abort', onDeadline, { once: true });
    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      deadline?.removeEventListener('abort', onDeadline);
      if (error) {
        chunks.length = 0;
        reject(error);
      } else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) settle(new ApiError(413, `Request body is too large (limit ${limit} bytes).`));
      else chunks.push(chunk);
    });
    req.on('end', () => settle());
    req.on('error', () => settle(new ClientAbort(size)));
    req.on('close', () => {
      if (!req.complete) settle(new ClientAbort(size));
    });
  });
}

function parseJson(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Bad JSON.');
  }
  if (nestsDeeperThan(parsed)) throw new ApiError(400, TOO_DEEPLY_NESTED);
  return parsed;
}

function queryParams(url: URL): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (key !== 'x-typesense-api-key') params[key] = value;
  return params;
}

function requireAdmin(access: KeyAccess): void {
  if (access.kind !== 'admin') throw new ApiError(401, FORBIDDEN);
}

function requireSearch(access: KeyAccess): Record<string, string> {
  if (access.kind === 'none') throw new ApiError(401, FORBIDDEN);
  return access.kind === 'search' ? access.embedded : {};
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiError(404, 'Not Found');
  }
}

/** What the request steps share: the pool, the limits and keys, and the server's counters. */
interface ServerParts {
  pool: WorkerPool;
  analyticsFlusher: AnalyticsFlusher;
  limits: RequestLimits;
  bodyLimit: number;
  bodyTimeoutMs: number;
  keys: { adminApiKey: string; searchOnlyApiKeys: string[] };
  allowedOrigins: Set<string>;
  /** Who may use what from a web page (the two options of the same names). */
  pages: { refuseAdminKey: boolean; adminRoutesFromAllowedOrigins: boolean };
  setOperations: SetOperations;
  stats(): SearchServerStats;
  log(msg: string): void;
}

/** One request as the routes read it: its route, key, query and analytics user. */
interface ApiRequest {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  segments: string[];
  query: Record<string, string>;
  kind: ReturnType<typeof routeKind>;
  /** Sent by a web page that may not reach the admin routes (any page, unless `adminRoutesFromAllowedOrigins` lets an allowed one). */
  foreignBrowser: boolean;
  /** An allowed origin this request gets CORS answers for (a search route, or an admin route when opted in). */
  corsOrigin: string | undefined;
  /** The request's key, resolved when a route needs it (the admin key is refused from pages that may not use it). */
  access(): KeyAccess;
  clientAddress: string;
  /** Typesense's analytics user: the `x-typesense-user-id` header or parameter, else the client address. */
  analyticsUser: string;
}

/** A route step: answers the request and returns true, or returns false to leave it to the next. */
type Route = (parts: ServerParts, request: ApiRequest) => Promise<boolean>;

/**
 * Starts the embedded Typesense-protocol server: this thread answers HTTP
 * (keys, limits, scheduling) and never searches; a pool of worker threads
 * holds the index and runs the searches. Resolves once every worker has
 * loaded the data folder and the server listens.
 */
export async function startSearchServer(options: SearchServerOptions): Promise<RunningSearchServer> {
  const log = options.log ?? (() => {});
  const keys = { adminApiKey: options.adminApiKey, searchOnlyApiKeys: options.searchOnlyApiKeys ?? [] };
  if (!keys.adminApiKey) throw new Error('startSearchServer: adminApiKey is required');
  const allowedOrigins = allowedOriginsOf(options.allowedOrigins ?? []);
  if (options.refuseAdminKeyFromPages && options.adminRoutesFromAllowedOrigins) {
    throw new Error('startSearchServer: refuseAdminKeyFromPages and adminRoutesFromAllowedOrigins contradict each other (admin routes need the admin key)');
  }
  // Workers reload from a folder after a restart, so an in-memory server keeps a temporary one.
  const temporaryDir = options.dataDir ? undefined : mkdtempSync(join(tmpdir(), 'khs-search-'));
  const dataDir = options.dataDir ?? (temporaryDir as string);
  const pool = await startPool(options, dataDir, log);
  const analyticsFlusher = new AnalyticsFlusher(pool, options.analyticsFlushIntervalMs ?? DEFAULT_ANALYTICS_FLUSH_INTERVAL_MS, log);
  analyticsFlusher.start();
  const counters = { requests: 0, responses: {} as Record<string, number>, errors: 0, abortedUploads: 0 };
  const parts: ServerParts = {
    pool,
    analyticsFlusher,
    limits: { ...DEFAULT_REQUEST_LIMITS, ...options.limits },
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    keys,
    allowedOrigins,
    pages: { refuseAdminKey: options.refuseAdminKeyFromPages ?? false, adminRoutesFromAllowedOrigins: options.adminRoutesFromAllowedOrigins ?? false },
    setOperations: poolSetOperations(pool),
    stats: () => ({ ...counters, responses: { ...counters.responses }, ...pool.counters, workers: pool.size, queued: pool.queueLength }),
    log,
  };
  const unwatchPool = watchPool(pool);
  const server = createServer((req, res) => {
    countResponse(counters, res);
    startBodyDeadline(req, res, parts.bodyTimeoutMs);
    observeSearchRequest(req, res, () => handleRequest(parts, req, res)).catch((error: unknown) => answerFailure(parts, counters, error, req, res));
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  const host = options.host ?? '127.0.0.1';
  try {
    await listen(server, host, options.port ?? 8108);
  } catch (error) {
    await pool.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const url = serverUrl(host, address.port);
  log(`search server listening on ${url}`);
  // One shutdown however often close() is called: a second server.close() on a closed server
  // never called back, so a test closing a node mid-test and again in afterAll hung.
  let closing: Promise<void> | undefined;
  const shutDown = async (): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
    await analyticsFlusher.close();
    unwatchPool();
    await pool.close();
    if (temporaryDir) rmSync(temporaryDir, { recursive: true, force: true });
  };
  return { url, port: address.port, stats: parts.stats, close: () => (closing ??= shutDown()) };
}

/** The allowed page origins, normalized; throws on one that is not an http(s) origin. */
function allowedOriginsOf(origins: readonly string[]): Set<string> {
  return new Set(
    origins.map((origin) => {
      const normalized = normalizeOrigin(origin);
      if (!normalized) throw new Error(`startSearchServer: allowed origin "${origin}" is not an http(s) origin`);
      return normalized;
    }),
  );
}

/** The worker pool, answering once the writer has loaded the data folder (the readers join while the server already answers). */
async function startPool(options: SearchServerOptions, dataDir: string, log: (msg: string) => void): Promise<WorkerPool> {
  const started = Date.now();
  const pool = new WorkerPool({
    dataDir,
    size: Math.max(1, options.workers ?? availableParallelism()),
    queueLimit: options.queueLimit ?? 200,
    searchBudgetMs: options.searchBudgetMs ?? 2000,
    youngGenerationMb: options.workerYoungGenerationMb,
    analyticsMinuteRateLimit: options.analyticsMinuteRateLimit,
    log,
  });
  await pool.start({ readersInBackground: true });
  log(`search data loaded from ${dataDir} in ${Date.now() - started} ms; ${pool.size} worker(s) serving, readers join as they are built`);
  return pool;
}

/** Set routes (issue 15) reach the sets through the pool: reads on one worker, changes as pool writes. */
function poolSetOperations(pool: WorkerPool): SetOperations {
  return {
    read: (operation, args) => pool.read('readSets', [operation, args]),
    write: (operation, args) => pool.write('changeSets', [operation, args]),
    patchCollection: (collection, body) => pool.write('patchCollection', [collection, body]),
  };
}

function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The base URL clients use (a wildcard host is reached on loopback). */
function serverUrl(host: string, port: number): string {
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return `http://${urlHost === '0.0.0.0' ? '127.0.0.1' : urlHost}:${port}`;
}

/** Counts the response by status when it is sent. */
function countResponse(counters: { requests: number; responses: Record<string, number>; errors: number }, res: ServerResponse): void {
  counters.requests++;
  res.on('finish', () => {
    const status = String(res.statusCode);
    counters.responses[status] = (counters.responses[status] ?? 0) + 1;
    if (res.statusCode >= 500) counters.errors++;
  });
}

/**
 * One request's lifecycle: read it, answer CORS (and a preflight), refuse an admin request from
 * a foreign page, then the first route that takes it answers; else 404.
 */
async function handleRequest(parts: ServerParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = readRequest(parts, req, res);
  if (answerCors(request)) return;
  // A page on another site can send writes without a preflight (`text/plain`, key in the query).
  if (request.kind === 'admin' && request.foreignBrowser) throw new ApiError(403, FOREIGN_ADMIN_REQUEST);
  if (hasCodedBody(req.headers)) {
    res.setHeader('accept-encoding', ACCEPTED_REQUEST_CODING);
    throw unsupportedCoding();
  }
  for (const route of ROUTES) if (await route(parts, request)) return;
  throw new ApiError(404, 'Not Found');
}

/** The request's route, key, query and analytics user, read once. */
function readRequest(parts: ServerParts, req: IncomingMessage, res: ServerResponse): ApiRequest {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://localhost');
  const segments = url.pathname.split('/').filter(Boolean).map(decodeSegment);
  const kind = routeKind(method, segments);
  const sender = requestSender(req.headers, parts.allowedOrigins);
  const allowedPage = sender === 'allowed-page';
  const foreignBrowser = sender !== 'server' && !(allowedPage && parts.pages.adminRoutesFromAllowedOrigins);
  // Typesense with --enable-cors lets the key alone decide; pages of other origins never get the admin key.
  const adminKeyRefused = sender === 'other-page' || (allowedPage && parts.pages.refuseAdminKey);
  const corsReach = kind === 'search' || (kind === 'admin' && parts.pages.adminRoutesFromAllowedOrigins);
  const corsOrigin = corsReach ? allowedRequestOrigin(req.headers, parts.allowedOrigins) : undefined;
  const headerKey = req.headers['x-typesense-api-key'];
  const key = (Array.isArray(headerKey) ? headerKey[0] : headerKey) ?? url.searchParams.get('x-typesense-api-key') ?? undefined;
  const query = queryParams(url);
  const clientAddress = req.socket.remoteAddress ?? '';
  const headerUser = req.headers['x-typesense-user-id'];
  return {
    req,
    res,
    method,
    segments,
    query,
    kind,
    foreignBrowser,
    corsOrigin,
    access: () => {
      const resolved = resolveKey(key, parts.keys);
      if (resolved.kind === 'admin' && adminKeyRefused) throw new ApiError(403, ADMIN_KEY_FROM_BROWSER);
      return resolved;
    },
    clientAddress,
    analyticsUser: (Array.isArray(headerUser) ? headerUser[0] : headerUser) ?? query['x-typesense-user-id'] ?? clientAddress,
  };
}

/**
 * CORS only for the allowed origins (named, never `*`), on searches (and on the admin routes when
 * `adminRoutesFromAllowedOrigins` is on). Returns true when it answered a preflight.
 */
function answerCors({ res, method, kind, corsOrigin }: ApiRequest): boolean {
  if (kind === 'search' || corsOrigin) res.setHeader('vary', 'Origin');
  if (corsOrigin) res.setHeader('access-control-allow-origin', corsOrigin);
  if (method !== 'OPTIONS') return false;
  if (!corsOrigin) throw new ApiError(403, CROSS_ORIGIN_REFUSED);
  res.writeHead(204, {
    'access-control-allow-methods': kind === 'search' ? SEARCH_CORS_METHODS : ADMIN_CORS_METHODS,
    'access-control-allow-headers': CORS_ALLOWED_HEADERS,
    'access-control-max-age': '3600',
  });
  res.end();
  return true;
}

/** `GET /health` (anyone), `GET /stats.json` and `GET /metrics` (admin key; for Prometheus also as `Authorization: Bearer`). */
const healthAndStatsRoute: Route = async (parts, { method, segments, req, res, access, foreignBrowser }) => {
  if (method !== 'GET' || segments.length !== 1) return false;
  if (segments[0] === 'health') {
    sendJson(res, 200, { ok: true });
    return true;
  }
  if (segments[0] === 'metrics') {
    const bearer = presentedToken(req.headers.authorization);
    requireAdmin(bearer !== undefined && !foreignBrowser ? resolveKey(bearer, parts.keys) : access());
    const { contentType, body } = await metricsText();
    sendText(res, 200, body, contentType);
    return true;
  }
  if (segments[0] !== 'stats.json') return false;
  requireAdmin(access());
  sendJson(res, 200, { ...parts.stats(), workerMemory: await parts.pool.memory(), serverMemory: serverMemory() });
  return true;
};

/** `POST /multi_search`: searches (or a union) within the key's embedded parameters and the limits. */
const multiSearchRoute: Route = async (parts, { method, segments, req, res, query, access, analyticsUser }) => {
  if (segments[0] !== 'multi_search' || segments.length !== 1 || method !== 'POST') return false;
  const keyAccess = access();
  const embedded = requireSearch(keyAccess);
  const limit = multiSearchLimit(keyAccess.kind === 'admin', embedded, query, parts.limits);
  const body = parseJson(await readBody(req, parts.limits.maxSearchBodyBytes));
  const plan = planMultiSearch(body, query, embedded, limit);
  await respondWithSearches(parts, res, plan.searches, false, analyticsUser, plan.union, query);
  return true;
};

/** Issue 15: synonym sets, curation sets and PATCH /collections/:name live in set-routes.ts. */
const setRoute: Route = async (parts, { method, segments, query, req, res, access }) => {
  const routed = await routeSetRequest(parts.setOperations, {
    method,
    segments,
    query,
    requireAdmin: () => requireAdmin(access()),
    readJson: async () => parseJson(await readBody(req, parts.bodyLimit)),
  });
  if (!routed) return false;
  sendJson(res, routed.status, routed.body);
  return true;
};

/** Issue 25: Typesense 30 analytics live in analytics-routes.ts (state in the writer worker). */
const analyticsRoute: Route = async (parts, { method, segments, query, clientAddress, req, res, access }) => {
  const answer = await routeAnalyticsRequest(
    { call: (operation, args) => parts.pool.analytics(operation, args), flush: () => parts.analyticsFlusher.flush() },
    { method, segments, query, clientAddress, requireAdmin: () => requireAdmin(access()), readJson: async () => parseJson(await readBody(req, parts.limits.maxSearchBodyBytes)) },
  );
  if (!answer) return false;
  sendJson(res, answer.status, answer.body);
  return true;
};

/** `/collections` and `/collections/:name`: list, create, retrieve, drop (admin key). */
const collectionsRoute: Route = async ({ pool, bodyLimit }, { method, segments, req, res, access }) => {
  const [first, name] = segments;
  if (first !== 'collections' || segments.length > 2) return false;
  const answer =
    segments.length === 1
      ? method === 'GET'
        ? () => pool.read('list', []).then((body) => [200, body] as const)
        : method === 'POST'
          ? async () => [201, await pool.write('createCollection', [parseJson(await readBody(req, bodyLimit))])] as const
          : undefined
      : name === undefined
        ? undefined
        : method === 'GET'
          ? () => pool.read('retrieveCollection', [name]).then((body) => [200, body] as const)
          : method === 'DELETE'
            ? () => pool.write('dropCollection', [name]).then((body) => [200, body] as const)
            : undefined;
  if (!answer) return false;
  requireAdmin(access());
  const [status, body] = await answer();
  sendJson(res, status, body);
  return true;
};

/** `/collections/:name/documents…`: search (search key), import, write, read, delete, update (admin key). */
const documentsRoute: Route = async (parts, request) => {
  const { method, segments, query, req, res, access, analyticsUser } = request;
  const { pool, bodyLimit } = parts;
  const [first, name, third, fourth, fifth] = segments;
  if (first !== 'collections' || third !== 'documents' || name === undefined) return false;
  if (segments.length === 4 && fourth === 'search' && method === 'GET') {
    const embedded = requireSearch(access());
    const merged = mergeSearchParams([embedded, query]);
    await respondWithSearches(parts, res, [{ ...merged, collection: name }], true, analyticsUser);
    return true;
  }
  if (segments.length === 4 && fourth === 'import' && method === 'POST') {
    requireAdmin(access());
    const action = importAction(query);
    await pool.read('retrieveCollection', [name]);
    const body = await readBody(req, bodyLimit);
    const results = (await pool.write('importDocuments', [name, body, action, query.return_id === 'true', query.return_doc === 'true'])) as unknown[];
    sendText(res, 200, results.map((r) => JSON.stringify(r)).join('\n'));
    return true;
  }
  if (segments.length === 3 && method === 'POST') {
    requireAdmin(access());
    const action = importAction(query);
    const body = parseJson(await readBody(req, bodyLimit));
    sendJson(res, 201, await pool.write('writeDocument', [name, body, action]));
    return true;
  }
  if (segments.length !== 4 || fourth === undefined || fifth !== undefined) return false;
  if (method === 'GET') {
    requireAdmin(access());
    sendJson(res, 200, await pool.read('getDocument', [name, fourth]));
    return true;
  }
  if (method === 'DELETE') {
    requireAdmin(access());
    sendJson(res, 200, await pool.write('deleteDocument', [name, fourth]));
    return true;
  }
  if (method === 'PATCH') {
    requireAdmin(access());
    const body = parseJson(await readBody(req, bodyLimit));
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Bad JSON.');
    await pool.read('getDocument', [name, fourth]);
    sendJson(res, 200, await pool.write('writeDocument', [name, { ...(body as object), id: fourth }, 'update']));
    return true;
  }
  return false;
};

/** The `action` of a document write or import (default `create`); 400 for another. */
function importAction(query: Record<string, string>): string {
  const action = query.action ?? 'create';
  if (!IMPORT_ACTIONS.has(action)) throw new ApiError(400, 'Parameter `action` must be a create|update|upsert.');
  return action;
}

/** The routes in the order they are tried. */
const ROUTES: readonly Route[] = [healthAndStatsRoute, multiSearchRoute, setRoute, analyticsRoute, collectionsRoute, documentsRoute];

/**
 * Runs searches on the pool and writes `{"results":[…]}` (or one search's result) within the
 * response limit. With `union` the searches run together in one worker and the answer is the
 * merged result; the same limits apply (searches per request were checked when planning, the
 * sum of `per_page`, each search's parameters, the response size), and as in Typesense any
 * error of a union answers 200 with `{ "code", "error" }`.
 */
async function respondWithSearches(parts: ServerParts, res: ServerResponse, searches: Record<string, string>[], single: boolean, analyticsUser: string, union?: UnionRequest, unionPaging: Record<string, string> = {}): Promise<void> {
  const { pool, limits } = parts;
  checkHitsPerRequest(searches, limits);
  const tasks: SearchTask[] = [];
  const slots: (string | undefined)[] = searches.map((params) => {
    try {
      checkSearchParams(params, limits);
    } catch (error) {
      const apiError = error as ApiError;
      return JSON.stringify({ code: apiError.status, error: apiError.message });
    }
    tasks.push({ collection: params.collection, params, maxResultBytes: limits.maxResponseBytes });
    return undefined;
  });
  const refused = slots.find((slot) => slot !== undefined);
  if (union && refused !== undefined) return sendText(res, 200, refused, JSON_TYPE);
  if (single && slots[0] !== undefined) {
    const { code, error } = JSON.parse(slots[0]) as { code: number; error: string };
    throw new ApiError(code, error);
  }
  const gone = new AbortController();
  const onClose = (): void => {
    if (!res.writableFinished) gone.abort();
  };
  res.on('close', onClose);
  const planned: SearchTask[] = union ? [{ collection: undefined, params: unionPaging, maxResultBytes: limits.maxResponseBytes, union: { searches, removeDuplicates: union.removeDuplicates } }] : tasks;
  const searchStarted = performance.now();
  const outcomes = planned.length > 0 ? await pool.search(planned, gone.signal) : [];
  if (planned.length > 0) recordSearchQueries(union ? 'union' : single ? 'search' : 'multi_search', (performance.now() - searchStarted) / 1000);
  res.off('close', onClose);
  pool.noteSearches(notedSearches(outcomes, analyticsUser));
  if (gone.signal.aborted) return;
  if (single || union) {
    const outcome = outcomes[0];
    if (!outcome) throw new ApiError(500, 'Internal error.');
    if (outcome.ok) return sendBytes(res, 200, outcome.body);
    if (union) return sendJson(res, 200, { code: outcome.status, error: outcome.message });
    throw new ApiError(outcome.status, outcome.message);
  }
  let next = 0;
  const answers = slots.map((slot): Uint8Array => {
    if (slot !== undefined) return Buffer.from(slot);
    const outcome = outcomes[next++];
    if (!outcome) return Buffer.from(JSON.stringify({ code: 500, error: 'Internal error.' }));
    return outcome.ok ? outcome.body : Buffer.from(JSON.stringify({ code: outcome.status, error: outcome.message }));
  });
  sendResults(res, answers, limits.maxResponseBytes);
}

/** `{"results":[` + the answers separated by commas + `]}`, assembled as bytes; 422 beyond the response limit. */
function sendResults(res: ServerResponse, answers: Uint8Array[], maxResponseBytes: number): void {
  const pieces: Uint8Array[] = [RESULTS_OPEN];
  answers.forEach((answer, i) => pieces.push(...(i > 0 ? [COMMA, answer] : [answer])));
  pieces.push(RESULTS_CLOSE);
  const size = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
  if (size > maxResponseBytes) {
    throw new ApiError(422, `The response would exceed the limit of ${maxResponseBytes} bytes; ask for fewer searches, hits, fields or highlights.`);
  }
  sendBytes(res, 200, Buffer.concat(pieces, size));
}

/**
 * The end of a failed request: a client that left is only counted; an `ApiError` is answered
 * with its status, anything else logged and answered 500; the rest of a refused body is
 * drained so the client can read the answer.
 */
function answerFailure(parts: ServerParts, counters: { abortedUploads: number }, error: unknown, req: IncomingMessage, res: ServerResponse): void {
  if (error instanceof ClientAbort) {
    counters.abortedUploads++;
    parts.log(`client aborted ${req.method} ${new URL(req.url ?? '/', 'http://localhost').pathname} after ${error.receivedBytes} bytes`);
    res.destroy();
    return;
  }
  const apiError = error instanceof ApiError ? error : undefined;
  if (!apiError) parts.log(`internal error on ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  // A body that did not arrive in time is not waited for any longer.
  if (apiError?.status === 408 && !req.complete) res.setHeader('connection', 'close');
  sendJson(res, apiError?.status ?? 500, { message: apiError?.message ?? 'Internal Server Error' });
  if (!req.complete && apiError?.status !== 408) drainBody(req);
}

/** Reads (without keeping) what of the body is still arriving; a body far over any limit is cut off instead, and one still arriving at its deadline then (`startBodyDeadline`). */
function drainBody(req: IncomingMessage): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN_BYTES) req.destroy();
  });
  req.resume();
}
