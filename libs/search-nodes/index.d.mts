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
export function parseSearchNodes(name: string, raw: string | undefined): ParsedSearchNodes;

/** One node from its URL; undefined when it is not an http(s) URL without query or credentials. */
export function searchNodeFromUrl(value: string): SearchNode | undefined;

/** `http://host:port/path` of a node: the base URL the indexer and the CSP use. */
export function searchNodeUrl(node: SearchNode): string;

/** `http://host:port` of a node (a CSP source). */
export function searchNodeOrigin(node: SearchNode): string;

/** Where a server-side Typesense client writes and reads: the nodes it spreads over, the one it tries first. */
export interface SearchNodeSettings {
  /** Every node (at least one). */
  nodes: SearchNode[];
  /** A load-balanced endpoint tried before `nodes`. Default none. */
  nearestNode?: SearchNode;
}

/**
 * The search nodes a server-side client uses, from the environment — the shell (browsers' page
 * config, CSP) and the search slice's indexer read them here, so both reach the same cluster:
 * `TYPESENSE_NODES` (comma-separated URLs) with optional `TYPESENSE_NEAREST_NODE`, else the one
 * node `TYPESENSE_PROTOCOL`/`TYPESENSE_HOST`/`TYPESENSE_PORT` (default `http://127.0.0.1:8108`).
 * @throws Error naming every bad variable.
 */
export function searchNodeSettingsFromEnv(env?: NodeJS.ProcessEnv): SearchNodeSettings;
