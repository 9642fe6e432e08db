// The search settings of the shell's configuration that take more than a line to read: the popularity
// switch and the search cluster's nodes (config.ts reads the rest).
import { popularitySwitchFromEnv, POPULARITY_SWITCH_ENV, type SearchNode } from 'contracts';
import { parseSearchNodes, searchNodeUrl } from '@khs/search-nodes';

/** The cluster's nodes as the shell and browsers reach them (`ShellConfig['search']`'s node fields). */
export interface SearchClusterSettings {
  nodes: SearchNode[] | undefined;
  nearestNode: SearchNode | undefined;
  browserNodes: SearchNode[] | undefined;
  browserNearestNode: SearchNode | undefined;
}

/** `SEARCH_POPULARITY` (contracts' reader), a problem when it is neither `on` nor `off`. */
export function readPopularitySwitch(env: NodeJS.ProcessEnv, problems: string[]): boolean {
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
export function readSearchCluster(env: NodeJS.ProcessEnv, problems: string[]): SearchClusterSettings {
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
    const port = Number(env.TYPESENSE_PORT?.trim() || 8108);
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
