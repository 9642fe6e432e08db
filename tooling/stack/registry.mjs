// The one list of the site's deployable parts. The shell's configuration (`shell/src/server/config.ts`),
// `npm start` (scripts/start.mjs) and the e2e harness (e2e/harness/stack.ts) all read it, so a remote
// or service is added, renamed or moved to another port here and nowhere else.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Each federated remote: its workspace folder, the variable holding its manifest URL, its default port. */
export const REMOTES = Object.freeze([
  Object.freeze({ name: 'mf-search', manifestEnv: 'REMOTE_MF_SEARCH_URL', defaultPort: 4310 }),
  Object.freeze({ name: 'mf-watchlist', manifestEnv: 'REMOTE_MF_WATCHLIST_URL', defaultPort: 4311 }),
  Object.freeze({ name: 'mf-survey', manifestEnv: 'REMOTE_MF_SURVEY_URL', defaultPort: 4312 }),
  Object.freeze({ name: 'mf-widgets', manifestEnv: 'REMOTE_MF_WIDGETS_URL', defaultPort: 4313 }),
]);

/**
 * Each server-side service the shell reaches: its name, the variables that point the shell at it
 * (host and port) and its default port.
 */
export const SERVICES = Object.freeze([
  // The Typesense-protocol search server (search-engine/), run as its own supervised process unless
  // TYPESENSE_HOST points at a real Typesense.
  Object.freeze({ name: 'search', hostEnv: 'TYPESENSE_HOST', portEnv: 'TYPESENSE_PORT', defaultPort: 8108 }),
]);

/**
 * Each team's own service (its slice's server): the service's name, its slice folder, the entry its
 * `npm start` runs (relative to the slice), the variable holding its URL in the shell's configuration
 * (a comma-separated list balances over several instances), its default port and the variable holding
 * its edge key (the secret the shell sends with every forwarded request and the service checks: one
 * per service, so no service holds another's key or the shell's cookie secret), and its edge policy:
 * the file (relative to the slice) in which the service declares what the shell's edge does with its
 * calls (`readEdgePolicy`). The shell reaches it through its reverse proxy; the stack starter runs it
 * as its own supervised process.
 */
export const TEAM_SERVICES = Object.freeze([
  Object.freeze({ name: 'survey', slice: 'mf-survey', entry: 'server/src/main.ts', urlEnv: 'SURVEY_SERVICE_URL', defaultPort: 4320, edgeKeyEnv: 'SURVEY_EDGE_KEY', edgePolicy: 'server/edge-policy.json' }),
  Object.freeze({ name: 'watchlist', slice: 'mf-watchlist', entry: 'server/src/main.ts', urlEnv: 'WATCHLIST_SERVICE_URL', defaultPort: 4321, edgeKeyEnv: 'WATCHLIST_EDGE_KEY', edgePolicy: 'server/edge-policy.json' }),
  // The search team's service: the insights collector and the indexer that fills the articles
  // collection (so it alone gets the search server's admin key; the search server is SERVICES' `search`),
  // and the editors' search report (so it alone gets the editor token).
  Object.freeze({ name: 'insights', slice: 'mf-search', entry: 'server/src/main.ts', urlEnv: 'INSIGHTS_SERVICE_URL', defaultPort: 4322, edgeKeyEnv: 'INSIGHTS_EDGE_KEY', edgePolicy: 'server/edge-policy.json', writesSearchIndex: true, readsEditorToken: true }),
  Object.freeze({ name: 'contact', slice: 'contact', entry: 'server/src/main.ts', urlEnv: 'CONTACT_SERVICE_URL', defaultPort: 4323, edgeKeyEnv: 'CONTACT_EDGE_KEY', edgePolicy: 'server/edge-policy.json' }),
]);

/** The shell's own default port (`PORT`). */
export const SHELL_DEFAULT_PORT = 4300;

/** The manifest URL a remote has when served on loopback at `origin` (default: its default port). */
export function defaultManifestUrl(remote, origin = `http://127.0.0.1:${remote.defaultPort}`) {
  return `${origin}/mf-manifest.json`;
}

/** The URL a team service has when it runs on loopback on its default port. */
export function defaultServiceUrl(service) {
  return `http://127.0.0.1:${service.defaultPort}`;
}

/**
 * The edge policy `service` declares (its slice's `edgePolicy` file, parsed JSON, not yet checked:
 * the shell validates it at start and refuses to start on a malformed one). A file, not a call to
 * the running service: the edge's routes, limits and checks are set before the shell listens, so a
 * service that is down at that moment still has its calls answered (503), not unknown (404).
 */
export function readEdgePolicy(service) {
  return JSON.parse(readFileSync(path.join(REPO_ROOT, service.slice, service.edgePolicy), 'utf8'));
}

/** The team service `name`; throws for a name the registry does not list. */
export function teamService(name) {
  const service = TEAM_SERVICES.find((entry) => entry.name === name);
  if (!service) throw new Error(`No team service named "${name}" in the stack registry`);
  return service;
}

/**
 * The origins whose pages query the search server from the browser, for its
 * `SEARCH_ALLOWED_ORIGINS` (only they get CORS answers to searches): the shell on loopback
 * (`127.0.0.1` and `localhost`, when its port is known), its public origin (`PUBLIC_BASE_URL`),
 * and each remote's origin (its standalone page). Duplicates and unparsable entries are dropped.
 */
export function searchPageOrigins({ shellPort, publicBaseUrl, remoteOrigins = [] }) {
  const origins = new Set();
  const add = (value) => {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
    } catch {
      // Not a URL: nothing a browser page could have as its origin.
    }
  };
  if (Number(shellPort) > 0) for (const host of ['127.0.0.1', 'localhost']) add(`http://${host}:${shellPort}`);
  if (publicBaseUrl) add(publicBaseUrl);
  for (const origin of remoteOrigins) add(origin);
  return [...origins];
}
