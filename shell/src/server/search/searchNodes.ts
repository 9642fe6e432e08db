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
