import type { SearchNode } from 'contracts';
import type { ShellConfig } from '../config.js';
import type { BrowserSearchEndpoint } from '../pageConfig.js';

/**
 * Where browsers send searches (search-only key): every node of the configured cluster
 * (`TYPESENSE_NODES`, as `SEARCH_BROWSER_NODES` names them) or the one node `TYPESENSE_HOST`
 * (as `SEARCH_BROWSER_HOST` names it), else `127.0.0.1` on `TYPESENSE_PORT` (8108), where the search
 * server listens when started alone (`npm start -w @khs/search-engine`). The shell runs no search
 * server and holds no admin key: `tooling/stack` starts the server, the search slice's service fills it.
 */
export function browserSearchEndpoint(config: ShellConfig): BrowserSearchEndpoint {
  const { search } = config;
  const browserNearestNode = search.browserNearestNode ?? search.nearestNode;
  const nearest = browserNearestNode ? { nearestNode: browserNearestNode } : {};
  if (search.nodes) {
    const browserNodes = search.browserNodes ?? search.nodes;
    const [first] = browserNodes as [SearchNode, ...SearchNode[]];
    return { host: first.host, port: first.port, protocol: first.protocol, nodes: browserNodes, ...nearest };
  }
  return { host: search.browserHost ?? search.host ?? '127.0.0.1', port: search.port, protocol: search.protocol, ...nearest };
}

/**
 * What the shell says at start when no search server is configured (neither `TYPESENSE_HOST` nor
 * `TYPESENSE_NODES`): how to point it at one. Undefined when one is configured.
 */
export function unconfiguredSearchNotice(config: ShellConfig): string | undefined {
  if (config.search.nodes || config.search.host) return undefined;
  return (
    `no search server configured (TYPESENSE_HOST or TYPESENSE_NODES): browsers search http://127.0.0.1:${config.search.port}. ` +
    'Run the whole site with `npm start` (it starts the search server and the search slice that fills it), ' +
    'or start one with `npm start -w @khs/search-engine` and `npm start -w mf-search`, ' +
    'or set TYPESENSE_HOST/TYPESENSE_PORT (TYPESENSE_NODES for a cluster) and TYPESENSE_SEARCH_API_KEY. ' +
    'Until a server answers there, the search islands show their "search unavailable" state.'
  );
}
