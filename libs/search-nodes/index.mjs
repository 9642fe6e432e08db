// Plain JavaScript with its types beside it (index.d.mts): the shell and the search slice's
// service import it as it is, with no build step (like @khs/env-integer).

/**
 * Reads a comma-separated list of search node URLs (`http://ts-1:8108,https://ts-2.example`):
 * protocol http or https, host, port (default the protocol's: 80/443) and an optional path
 * prefix. Unset or blank: no nodes.
 * @param {string} name
 * @param {string | undefined} raw
 */
export function parseSearchNodes(name, raw) {
  const values = (raw ?? '').split(',').map((value) => value.trim()).filter(Boolean);
  const nodes = [];
  const bad = [];
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

/**
 * One node from its URL; undefined when it is not an http(s) URL without query or credentials.
 * @param {string} value
 */
export function searchNodeFromUrl(value) {
  let url;
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
export function searchNodeUrl(node) {
  return `${node.protocol}://${node.host}:${node.port}${node.path ?? ''}`;
}

/** `http://host:port` of a node (a CSP source). */
export function searchNodeOrigin(node) {
  return new URL(searchNodeUrl(node)).origin;
}

/**
 * The search nodes a server-side client uses, from the environment (see index.d.mts).
 * @throws Error naming every bad variable.
 */
export function searchNodeSettingsFromEnv(env = process.env) {
  const problems = [];
  const nodes = parseSearchNodes('TYPESENSE_NODES', env.TYPESENSE_NODES);
  const nearest = parseSearchNodes('TYPESENSE_NEAREST_NODE', env.TYPESENSE_NEAREST_NODE);
  for (const parsed of [nodes, nearest]) if (parsed.problem) problems.push(parsed.problem);
  if (nearest.nodes.length > 1) problems.push(`TYPESENSE_NEAREST_NODE must be one URL, got ${nearest.nodes.length}`);
  if (problems.length > 0) throw new Error(problems.join('; '));
  const protocol = env.TYPESENSE_PROTOCOL?.trim() === 'https' ? 'https' : 'http';
  const single = { host: env.TYPESENSE_HOST?.trim() || '127.0.0.1', port: Number(env.TYPESENSE_PORT?.trim() || 8108), protocol };
  return {
    nodes: nodes.nodes.length > 0 ? nodes.nodes : [single],
    ...(nearest.nodes[0] ? { nearestNode: nearest.nodes[0] } : {}),
  };
}
