import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../api-error.js';
import { SearchEngine } from '../engine.js';
import type { WriteAction } from '../index/collection.js';
import { CollectionStore } from '../persistence/collection-store.js';
import { type KeyAccess, resolveKey } from './auth.js';
import { mergeSearchParams, multiSearch, runSearch } from './multi-search.js';
import { routeSetRequest } from './set-routes.js';

/** Options of `startSearchServer`. */
export interface SearchServerOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port; default 8108; 0 picks any free port. */
  port?: number;
  /** Persistence folder; undefined keeps everything in memory only. */
  dataDir?: string;
  /** Key with full access. */
  adminApiKey: string;
  /** Keys that may only search (and parent scoped keys). Default none. */
  searchOnlyApiKeys?: string[];
  /** Largest accepted request body. Default 64 MiB. */
  bodyLimitBytes?: number;
  /** Receives one line per notable event. Default: nothing is logged. */
  log?: (msg: string) => void;
}

/** A running search server. */
export interface RunningSearchServer {
  /** Base URL, e.g. `http://127.0.0.1:8108`. */
  url: string;
  port: number;
  /** Stops listening and folds the change logs into snapshots. */
  close(): Promise<void>;
}

const DEFAULT_BODY_LIMIT = 64 * 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';
const FORBIDDEN = 'Forbidden - a valid `x-typesense-api-key` header must be sent.';
const IMPORT_ACTIONS = new Set(['create', 'upsert', 'update', 'emplace']);

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(payload), 'access-control-allow-origin': '*' });
  res.end(payload);
}

function sendText(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), 'access-control-allow-origin': '*' });
  res.end(body);
}

/** Reads the body up to `limit` bytes; throws ApiError(413) beyond it. */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > limit) {
      reject(new ApiError(413, 'Request body is too large.'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        reject(new ApiError(413, 'Request body is too large.'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => {
      if (!failed) reject(error);
    });
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Bad JSON.');
  }
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

/**
 * Starts the embedded Typesense-protocol server. Resolves once it listens.
 */
export async function startSearchServer(options: SearchServerOptions): Promise<RunningSearchServer> {
  const log = options.log ?? (() => {});
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const keys = { adminApiKey: options.adminApiKey, searchOnlyApiKeys: options.searchOnlyApiKeys ?? [] };
  if (!keys.adminApiKey) throw new Error('startSearchServer: adminApiKey is required');
  const started = Date.now();
  const engine = new SearchEngine(options.dataDir ? new CollectionStore(options.dataDir) : undefined, log);
  if (options.dataDir) log(`search data loaded from ${options.dataDir} in ${Date.now() - started} ms`);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(200, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST, GET, DELETE, PUT, PATCH, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
        'access-control-max-age': '3600',
        'content-length': '0',
      });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const segments = url.pathname.split('/').filter(Boolean).map(decodeSegment);
    const headerKey = req.headers['x-typesense-api-key'];
    const key = (Array.isArray(headerKey) ? headerKey[0] : headerKey) ?? url.searchParams.get('x-typesense-api-key') ?? undefined;
    const access = (): KeyAccess => resolveKey(key, keys);
    const query = queryParams(url);
    const [first, name, third, fourth, fifth] = segments;

    if (method === 'GET' && segments.length === 1 && first === 'health') return sendJson(res, 200, { ok: true });

    if (first === 'multi_search' && segments.length === 1 && method === 'POST') {
      const embedded = requireSearch(access());
      const body = parseJson(await readBody(req, bodyLimit));
      return sendJson(res, 200, multiSearch(engine, body, query, embedded));
    }

    // Issue 15: synonym sets, curation sets and PATCH /collections/:name live in set-routes.ts.
    const routed = await routeSetRequest(engine, {
      method,
      segments,
      query,
      requireAdmin: () => requireAdmin(access()),
      readJson: async () => parseJson(await readBody(req, bodyLimit)),
    });
    if (routed) return sendJson(res, routed.status, routed.body);

    if (first === 'collections') {
      if (segments.length === 1) {
        if (method === 'GET') {
          requireAdmin(access());
          return sendJson(res, 200, engine.list());
        }
        if (method === 'POST') {
          requireAdmin(access());
          const body = parseJson(await readBody(req, bodyLimit));
          return sendJson(res, 201, engine.createCollection(body));
        }
      }
      if (segments.length === 2 && name !== undefined) {
        if (method === 'GET') {
          requireAdmin(access());
          return sendJson(res, 200, engine.retrieveCollection(name));
        }
        if (method === 'DELETE') {
          requireAdmin(access());
          return sendJson(res, 200, engine.dropCollection(name));
        }
      }
      if (third === 'documents' && name !== undefined) {
        if (segments.length === 4 && fourth === 'search' && method === 'GET') {
          const embedded = requireSearch(access());
          const merged = mergeSearchParams([embedded, query]);
          return sendJson(res, 200, runSearch(engine, name, merged));
        }
        if (segments.length === 4 && fourth === 'import' && method === 'POST') {
          requireAdmin(access());
          const action = query.action ?? 'create';
          if (!IMPORT_ACTIONS.has(action)) throw new ApiError(400, 'Parameter `action` must be a create|update|upsert.');
          if (!engine.get(name)) throw new ApiError(404, 'Collection not found');
          const body = await readBody(req, bodyLimit);
          const results = engine.importDocuments(name, body, action as WriteAction, query.return_id === 'true', query.return_doc === 'true');
          return sendText(res, 200, results.map((r) => JSON.stringify(r)).join('\n'));
        }
        if (segments.length === 3 && method === 'POST') {
          requireAdmin(access());
          const action = query.action ?? 'create';
          if (!IMPORT_ACTIONS.has(action)) throw new ApiError(400, 'Parameter `action` must be a create|update|upsert.');
          const body = parseJson(await readBody(req, bodyLimit));
          return sendJson(res, 201, engine.writeDocument(name, body, action as WriteAction));
        }
        if (segments.length === 4 && fourth !== undefined && fifth === undefined) {
          if (method === 'GET') {
            requireAdmin(access());
            return sendJson(res, 200, engine.getDocument(name, fourth));
          }
          if (method === 'DELETE') {
            requireAdmin(access());
            return sendJson(res, 200, engine.deleteDocument(name, fourth));
          }
          if (method === 'PATCH') {
            requireAdmin(access());
            const body = parseJson(await readBody(req, bodyLimit));
            if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Bad JSON.');
            engine.getDocument(name, fourth);
            return sendJson(res, 200, engine.writeDocument(name, { ...(body as object), id: fourth }, 'update'));
          }
        }
      }
    }
    throw new ApiError(404, 'Not Found');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const apiError = error instanceof ApiError ? error : undefined;
      if (!apiError) log(`internal error on ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (apiError?.status === 413) res.setHeader('connection', 'close');
      sendJson(res, apiError?.status ?? 500, { message: apiError?.message ?? 'Internal Server Error' });
      // Drain or drop whatever of the request body is still arriving.
      if (!req.complete) {
        if (apiError?.status === 413) res.on('finish', () => req.destroy());
        else req.resume();
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8108, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost === '0.0.0.0' ? '127.0.0.1' : urlHost}:${address.port}`;
  log(`search server listening on ${url}`);
  return {
    url,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          try {
            engine.flush();
          } catch (flushError) {
            reject(flushError);
            return;
          }
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}
