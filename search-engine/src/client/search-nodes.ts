import type { SearchNode } from 'contracts';

/** A search node list read from an environment variable, or the problem with it. */
export interface ParsedSearchNodes {
  nodes: SearchNode[];
  problem?: string;
}

/**
 * Reads a comma-separated list of search node URLs (`http://ts-1:8108,https://ts-2.example`):
 * protocol http or https, host, port (default the protocol's: 80/443) and an optional path
 * prefix. Unset or blank: no nodes.
 */
export function parseSearchNodes(name: string, raw: string | undefined): ParsedSearchNodes {
  const values = (raw ?? '').split(',').map((value) => value.trim()).filter(Boolean);
  const nodes: SearchNode[] = [];
  const bad: string[] = [];
  for (const value of values) {
    const node = searchNodeFromUrl(value);
    if (node) nodes.push(node);
    else bad.push(value);
  }
  if (bad.length > 0) {
    return { nodes, problem: `${name} must list http(s) URLs of search nodes (comma-separated, e.g. http://ts-1:8108), got "${bad.join('", "')}"` };
  }
  return { nodes };
}

/** One node from its URL; undefined when it is not an http(s) URL without query or credentials. */
export function searchNodeFromUrl(value: string): SearchNode | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) return undefined;
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  const path = url.pathname.replace(/\/+$/, '');
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80,
    protocol,
    ...(path ? { path } : {}),
  };
}

/** `http://host:port/path` of a node: the base URL the indexer and the CSP use. */
export function searchNodeUrl(node: SearchNode): string {
  return `${node.protocol}://${node.host}:${node.port}${node.path ?? ''}`;
}

/** `http://host:port` of a node (a CSP source). */
export function searchNodeOrigin(node: SearchNode): string {
  return new URL(searchNodeUrl(node)).origin;
}

/** Where a server-side Typesense client writes and reads: the nodes it spreads over, the one it tries first. */
export interface SearchNodeSettings {
  /** Every node (at least one). */
  nodes: SearchNode[];
  /** A load-balanced endpoint tried before `nodes`. Default none. */
  nearestNode?: SearchNode;
}

/**
 * The search nodes a server-side client uses, from the environment — the shell's search service
 * and the search slice's indexer read them here, so both reach the same cluster:
 * `TYPESENSE_NODES` (comma-separated URLs) with optional `TYPESENSE_NEAREST_NODE`, else the one
 * node `TYPESENSE_PROTOCOL`/`TYPESENSE_HOST`/`TYPESENSE_PORT` (default `http://127.0.0.1:8108`).
 * @throws Error naming every bad variable.
 */
export function searchNodeSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): SearchNodeSettings {
  const problems: string[] = [];
  const nodes = parseSearchNodes('TYPESENSE_NODES', env.TYPESENSE_NODES);
  const nearest = parseSearchNodes('TYPESENSE_NEAREST_NODE', env.TYPESENSE_NEAREST_NODE);
  for (const parsed of [nodes, nearest]) if (parsed.problem) problems.push(parsed.problem);
  if (nearest.nodes.length > 1) problems.push(`TYPESENSE_NEAREST_NODE must be one URL, got ${nearest.nodes.length}`);
  if (problems.length > 0) throw new Error(problems.join('; '));
  const protocol = env.TYPESENSE_PROTOCOL?.trim() === 'https' ? 'https' : 'http';
  const single: SearchNode = { host: env.TYPESENSE_HOST?.trim() || '127.0.0.1', port: Number(env.TYPESENSE_PORT?.trim() || 8108), protocol };
  return {
    nodes: nodes.nodes.length > 0 ? nodes.nodes : [single],
    ...(nearest.nodes[0] ? { nearestNode: nearest.nodes[0] } : {}),
  };
}
