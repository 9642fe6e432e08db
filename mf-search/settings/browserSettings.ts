// The search slice's browser settings: where browsers search (the search server's nodes as they
// reach them, the search-only key, the index) and how (the site's sort). The shell runs this module
// at start (declared in ../slice.json, `remote.browserSettings`; tooling/stack/browserSettings.mjs)
// and passes what it returns, unchanged, into every page's config as `search`; the shell itself
// reads none of these variables. It runs in the shell's process: it imports only contracts and libs/.
import { readEnvInteger } from '@khs/env-integer';
import { parseSearchNodes, searchNodeOrigin, searchNodeUrl } from '@khs/search-nodes';
import { DEFAULT_SEARCH_INDEX_NAME, DEFAULT_SEARCH_SETTINGS, popularitySwitchFromEnv, POPULARITY_SWITCH_ENV, searchSortBy, type SearchConfiguration, type SearchNode } from 'contracts';

type Env = Record<string, string | undefined>;

/** The default port of the search server (`TYPESENSE_PORT`). */
const DEFAULT_SEARCH_PORT = 8108;
/** The development search-only key (`TYPESENSE_SEARCH_API_KEY`; `npm start` generates a real one). */
const DEVELOPMENT_SEARCH_API_KEY = 'khs-search-dev-key';

/** Where browsers reach the search server: one node (`host`/`port`/`protocol`), or a cluster. */
export interface BrowserSearchEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
  /** Every node of a cluster, the first one repeated in `host`/`port`/`protocol`. Default: that one node. */
  nodes?: SearchNode[];
  /** A load-balanced endpoint tried before the nodes. Default none. */
  nearestNode?: SearchNode;
}

/** What `readBrowserSettings` returns (tooling/stack/browserSettings.d.mts, `SliceBrowserSettings`). */
export interface SearchBrowserSettings {
  pageConfig: { search: SearchConfiguration };
  connectOrigins: string[];
  notices: string[];
  problems: string[];
}

/** The search server settings as the shell's process reads them, before the browser's view of them. */
interface SearchServerEnv {
  host: string | undefined;
  port: number;
  protocol: 'http' | 'https';
  browserHost: string | undefined;
  nodes: SearchNode[] | undefined;
  nearestNode: SearchNode | undefined;
  browserNodes: SearchNode[] | undefined;
  browserNearestNode: SearchNode | undefined;
}

/**
 * The page config's `search` (the list's settings, the site's sort from `SEARCH_POPULARITY`, the
 * server as browsers reach it with the search-only key `TYPESENSE_SEARCH_API_KEY` and the index
 * `SEARCH_INDEX_NAME`), the origins browsers send searches to (the CSP's `connect-src`), what to
 * say at start when no search server is configured, and every malformed variable.
 */
export function readBrowserSettings(env: Env): SearchBrowserSettings {
  const problems: string[] = [];
  const server = readSearchServerEnv(env, problems);
  const endpoint = browserSearchEndpoint(server);
  const search: SearchConfiguration = {
    ...DEFAULT_SEARCH_SETTINGS,
    // The browser's and the server render's searches both take their sort from here.
    sortBy: searchSortBy(readPopularitySwitch(env, problems)),
    server: {
      apiKey: env.TYPESENSE_SEARCH_API_KEY?.trim() || DEVELOPMENT_SEARCH_API_KEY,
      host: endpoint.host,
      port: endpoint.port,
      protocol: endpoint.protocol,
      indexName: env.SEARCH_INDEX_NAME?.trim() || DEFAULT_SEARCH_INDEX_NAME,
      ...(endpoint.nodes ? { nodes: endpoint.nodes } : {}),
      ...(endpoint.nearestNode ? { nearestNode: endpoint.nearestNode } : {}),
    },
  };
  const notice = unconfiguredSearchNotice(server);
  return { pageConfig: { search }, connectOrigins: browserSearchOrigins(endpoint), notices: notice ? [notice] : [], problems };
}

function readSearchServerEnv(env: Env, problems: string[]): SearchServerEnv {
  const protocol = env.TYPESENSE_PROTOCOL?.trim() || 'http';
  if (protocol !== 'http' && protocol !== 'https') problems.push(`TYPESENSE_PROTOCOL must be http or https, got "${protocol}"`);
  let port = DEFAULT_SEARCH_PORT;
  try {
    port = readEnvInteger(env, 'TYPESENSE_PORT', { min: 0, max: 65535 }) ?? DEFAULT_SEARCH_PORT;
  } catch (error) {
    problems.push((error as Error).message);
  }
  return {
    host: env.TYPESENSE_HOST?.trim() || undefined,
    port,
    protocol: protocol === 'https' ? 'https' : 'http',
    browserHost: env.SEARCH_BROWSER_HOST?.trim() || undefined,
    ...readSearchCluster(env, problems),
  };
}

/** `SEARCH_POPULARITY` (contracts' reader), a problem when it is neither `on` nor `off`. */
function readPopularitySwitch(env: Env, problems: string[]): boolean {
  try {
    return popularitySwitchFromEnv(env);
  } catch (error) {
    problems.push((error as Error).message || `${POPULARITY_SWITCH_ENV} must be on or off`);
    return false;
  }
}

/**
 * The search cluster settings (`TYPESENSE_NODES`, `TYPESENSE_NEAREST_NODE` and their browser
 * variants), checked against the single-node ones: `TYPESENSE_HOST`/`TYPESENSE_PORT` may be set
 * next to `TYPESENSE_NODES` only when they name one of its nodes (the stack starter sets them),
 * `SEARCH_BROWSER_HOST` is for one node only, and a browser list needs the server list.
 */
function readSearchCluster(env: Env, problems: string[]): Pick<SearchServerEnv, 'nodes' | 'nearestNode' | 'browserNodes' | 'browserNearestNode'> {
  const list = (name: string) => {
    const parsed = parseSearchNodes(name, env[name]);
    if (parsed.problem) problems.push(parsed.problem);
    return parsed.nodes.length > 0 ? parsed.nodes : undefined;
  };
  const single = (name: string) => {
    const nodes = list(name);
    if (nodes && nodes.length > 1) problems.push(`${name} must be one URL, got ${nodes.length}`);
    return nodes?.[0];
  };
  const nodes = list('TYPESENSE_NODES');
  const nearestNode = single('TYPESENSE_NEAREST_NODE');
  const browserNodes = list('SEARCH_BROWSER_NODES');
  const browserNearestNode = single('SEARCH_BROWSER_NEAREST_NODE');
  const host = env.TYPESENSE_HOST?.trim();
  if (nodes && host) {
    const port = Number(env.TYPESENSE_PORT?.trim() || DEFAULT_SEARCH_PORT);
    if (!nodes.some((node) => node.host === host && node.port === port)) {
      problems.push(
        `TYPESENSE_HOST/TYPESENSE_PORT (${host}:${port}) is not one of TYPESENSE_NODES (${nodes.map(searchNodeUrl).join(', ')}): ` +
          'set them to one of the nodes (npm start needs that, else it starts its own search server) or leave them unset',
      );
    }
  }
  if (nodes && env.SEARCH_BROWSER_HOST?.trim()) problems.push('SEARCH_BROWSER_HOST is for one node; with TYPESENSE_NODES set SEARCH_BROWSER_NODES');
  if (browserNodes && !nodes) problems.push('SEARCH_BROWSER_NODES needs TYPESENSE_NODES (the nodes as the shell reaches them)');
  if (browserNearestNode && !nearestNode) problems.push('SEARCH_BROWSER_NEAREST_NODE needs TYPESENSE_NEAREST_NODE');
  if (nearestNode && !nodes && !host) problems.push('TYPESENSE_NEAREST_NODE needs TYPESENSE_NODES (or TYPESENSE_HOST): the nodes to fall back to');
  return { nodes, nearestNode, browserNodes, browserNearestNode };
}

/**
 * Where browsers send searches (search-only key): every node of the configured cluster
 * (`TYPESENSE_NODES`, as `SEARCH_BROWSER_NODES` names them) or the one node `TYPESENSE_HOST`
 * (as `SEARCH_BROWSER_HOST` names it), else `127.0.0.1` on `TYPESENSE_PORT` (8108), where the search
 * server listens when started alone (`npm start -w @khs/search-engine`). The shell runs no search
 * server and holds no admin key: `tooling/stack` starts the server, this slice's service fills it.
 */
export function browserSearchEndpoint(search: SearchServerEnv): BrowserSearchEndpoint {
  const browserNearestNode = search.browserNearestNode ?? search.nearestNode;
  const nearest = browserNearestNode ? { nearestNode: browserNearestNode } : {};
  if (search.nodes) {
    const browserNodes = search.browserNodes ?? search.nodes;
    const [first] = browserNodes as [SearchNode, ...SearchNode[]];
    return { host: first.host, port: first.port, protocol: first.protocol, nodes: browserNodes, ...nearest };
  }
  return { host: search.browserHost ?? search.host ?? '127.0.0.1', port: search.port, protocol: search.protocol, ...nearest };
}

/** Every origin browsers may send searches to (the CSP's `connect-src`): each node and the nearest node. */
export function browserSearchOrigins(search: BrowserSearchEndpoint): string[] {
  const nodes = [...(search.nodes ?? [{ host: search.host, port: search.port, protocol: search.protocol }]), ...(search.nearestNode ? [search.nearestNode] : [])];
  return [...new Set(nodes.map(searchNodeOrigin))];
}

/**
 * What the shell says at start when no search server is configured (neither `TYPESENSE_HOST` nor
 * `TYPESENSE_NODES`): how to point it at one. Undefined when one is configured.
 */
function unconfiguredSearchNotice(search: SearchServerEnv): string | undefined {
  if (search.nodes || search.host) return undefined;
  return (
    `no search server configured (TYPESENSE_HOST or TYPESENSE_NODES): browsers search http://127.0.0.1:${search.port}. ` +
    'Run the whole site with `npm start` (it starts the search server and the search slice that fills it), ' +
    'or start one with `npm start -w @khs/search-engine` and `npm start -w mf-search`, ' +
    'or set TYPESENSE_HOST/TYPESENSE_PORT (TYPESENSE_NODES for a cluster) and TYPESENSE_SEARCH_API_KEY. ' +
    'Until a server answers there, the search islands show their "search unavailable" state.'
  );
}
