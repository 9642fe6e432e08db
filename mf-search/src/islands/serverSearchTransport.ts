import http from 'node:http';
import https from 'node:https';
import type { SearchTransport } from '../config/createSearchClient.js';

/**
 * This loaded version's own keep-alive agents for the search server. Node's shared global agent
 * would collect one socket listener per loaded version (axios marks its listeners per copy) and
 * keep every old version in memory; `disposeServerSearchTransport()` ends them when the shell
 * loads a newer build.
 */
const agents = {
  httpAgent: new http.Agent({ keepAlive: true, timeout: 4000 }),
  httpsAgent: new https.Agent({ keepAlive: true, timeout: 4000 }),
};

/** Deadline of one search request from the server (seconds): a slow search leaves a placeholder, not a hung page. */
const SERVER_SEARCH_TIMEOUT_SECONDS = 2;

/** Answers record their searches: the browser's bound list sends the same for a typed query before the full island is there. */
export const serverSearchTransport: SearchTransport = { ...agents, connectionTimeoutSeconds: SERVER_SEARCH_TIMEOUT_SECONDS, recordSearches: true };

/** Closes this version's sockets (the shell calls each server module's `dispose`). */
export function disposeServerSearchTransport(): void {
  agents.httpAgent.destroy();
  agents.httpsAgent.destroy();
}
