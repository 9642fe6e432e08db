import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { superviseSearchServer, type SupervisedSearchServer } from '../../src/index.js';
import { fixtureArticles } from './fixtures.js';
import { fixtureCollectionSchema } from '../fixtures/collection-schema.js';

/**
 * The server under test: the embedded server, run as its own supervised
 * process on a free port with a temporary data folder (as `npm start` runs
 * it), or a real Typesense when TYPESENSE_URL and TYPESENSE_API_KEY are set.
 */
export interface Target {
  url: string;
  adminKey: string;
  searchKey: string;
  /** True when the tests run against the embedded server. */
  embedded: boolean;
  /** The embedded server's supervisor (process id, restarts); undefined for a real Typesense. */
  process?: SupervisedSearchServer;
  /** Lines the embedded server process logged (empty for a real Typesense). */
  logs: string[];
  close(): Promise<void>;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined if not JSON). */
  json: any;
}

/** @param env extra environment for the embedded server process (limits, workers). */
export async function startTarget(env: Record<string, string> = {}): Promise<Target> {
  const externalUrl = process.env.TYPESENSE_URL;
  const externalKey = process.env.TYPESENSE_API_KEY;
  if (externalUrl && externalKey) {
    const url = externalUrl.replace(/\/+$/, '');
    const created = await http(url, 'POST', '/keys', {
      key: externalKey,
      body: { description: 'conformance search key', actions: ['documents:search'], collections: ['*'] },
    });
    return { url, adminKey: externalKey, searchKey: created.json.value, embedded: false, logs: [], close: async () => {} };
  }
  const adminKey = 'test-admin-key';
  const searchKey = 'test-search-key';
  const dataDir = mkdtempSync(join(tmpdir(), 'search-conformance-'));
  const logs: string[] = [];
  const server = await superviseSearchServer({
    port: 0,
    dataDir,
    adminApiKey: adminKey,
    searchApiKey: searchKey,
    env: { SEARCH_WORKERS: '2', ...env },
    initialBackoffMs: env.SEARCH_RESTART_BACKOFF_MS ? Number(env.SEARCH_RESTART_BACKOFF_MS) : undefined,
    log: (line) => logs.push(line),
  });
  return {
    url: server.url,
    adminKey,
    searchKey,
    embedded: true,
    process: server,
    logs,
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RequestOptions {
  key?: string;
  /** Send the key as query parameter instead of header. */
  keyInQuery?: boolean;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Sends one HTTP request and reads the body as text (and JSON when it parses). */
export async function http(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let target = baseUrl + path;
  if (options.key !== undefined) {
    if (options.keyInQuery) target += `${path.includes('?') ? '&' : '?'}x-typesense-api-key=${encodeURIComponent(options.key)}`;
    else headers['x-typesense-api-key'] = options.key;
  }
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(target, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A collection name no other test (or earlier run on a real server) uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomUUID().slice(0, 8)}`;
}

/** Creates the articles collection with the fixtures imported; returns its name. */
export async function createArticleCollection(target: Target, prefix: string): Promise<string> {
  const name = uniqueName(prefix);
  const created = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: fixtureCollectionSchema(name) });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
  const jsonl = fixtureArticles.map((a) => JSON.stringify(a)).join('\n');
  const imported = await http(target.url, 'POST', `/collections/${name}/documents/import?action=create`, { key: target.adminKey, rawBody: jsonl, headers: { 'content-type': 'text/plain' } });
  if (imported.status !== 200 || imported.text.includes('"success":false')) throw new Error(`import failed: ${imported.text}`);
  return name;
}

/** Runs searches through POST /multi_search with the search key; returns the `results` array. */
export async function multiSearch(target: Target, searches: Record<string, unknown>[], key = target.searchKey): Promise<any[]> {
  const response = await http(target.url, 'POST', '/multi_search', { key, keyInQuery: true, body: { searches }, headers: { 'content-type': 'text/plain' } });
  if (response.status !== 200) throw new Error(`multi_search: ${response.status} ${response.text}`);
  return response.json.results;
}

/** One search; returns the result slot (may be an error slot). */
export async function search(target: Target, collection: string, params: Record<string, unknown>): Promise<any> {
  const [result] = await multiSearch(target, [{ collection, ...params }]);
  return result;
}

/** Ids of the hits, in order. */
export function hitIds(result: any): string[] {
  return (result.hits as { document: { id: string } }[]).map((h) => h.document.id);
}
