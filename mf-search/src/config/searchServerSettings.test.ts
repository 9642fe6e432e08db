import { describe, expect, it } from 'vitest';
import { examplePageConfig, type SearchConfiguration } from 'contracts';
import { SearchConfigurationError } from './SearchConfigurationError.js';
import { readSearchServerSettings } from './searchServerSettings.js';
import { searchRetriesFor } from './createSearchClient.js';

const search = examplePageConfig().search;
const withServer = (server: Record<string, unknown>): SearchConfiguration => ({ ...search, server: { ...search.server, ...server } as never });

/** The error `read` throws (fails the test when it throws none). */
function errorOf(read: () => unknown): SearchConfigurationError {
  try {
    read();
  } catch (error) {
    if (error instanceof SearchConfigurationError) return error;
    throw error;
  }
  throw new Error('expected a SearchConfigurationError');
}

describe('readSearchServerSettings: nodes', () => {
  it('reads host/port/protocol alone as one node', () => {
    expect(readSearchServerSettings(search).nodes).toEqual([{ host: '127.0.0.1', port: 8108, protocol: 'http', path: '' }]);
    expect(readSearchServerSettings(search).nearestNode).toBeUndefined();
  });

  it('reads a cluster (nodes) and a nearest node, with the path defaulting to empty', () => {
    const settings = readSearchServerSettings(
      withServer({
        nodes: [
          { host: 'ts-1.example', port: 443, protocol: 'https' },
          { host: 'ts-2.example', port: 443, protocol: 'https', path: '/typesense' },
        ],
        nearestNode: { host: 'ts.example', port: 443, protocol: 'https' },
      }),
    );
    expect(settings.nodes).toEqual([
      { host: 'ts-1.example', port: 443, protocol: 'https', path: '' },
      { host: 'ts-2.example', port: 443, protocol: 'https', path: '/typesense' },
    ]);
    expect(settings.nearestNode).toEqual({ host: 'ts.example', port: 443, protocol: 'https', path: '' });
    expect(searchRetriesFor(settings)).toBe(3);
  });

  it('gives one retry to one node, one per node to a cluster', () => {
    expect(searchRetriesFor(readSearchServerSettings(search))).toBe(1);
    const two = [search.server, search.server].map(({ host, port, protocol }) => ({ host, port, protocol }));
    expect(searchRetriesFor(readSearchServerSettings(withServer({ nodes: two })))).toBe(2);
  });

  it.each([
    [{ nodes: [] }, /"server.nodes" must list at least one node/],
    [{ nodes: 'h1:8108' }, /"server.nodes" must list at least one node/],
    [{ nodes: [{ host: 'ok', port: 8108, protocol: 'http' }, { host: '', port: 8108, protocol: 'http' }] }, /node "server.nodes\[1\]" needs a host/],
    [{ nodes: [{ host: 'h', port: 70000, protocol: 'http' }] }, /node "server.nodes\[0\]" needs a port from 1 to 65535/],
    [{ nodes: [{ host: 'h', port: 8108, protocol: 'ftp' }] }, /needs protocol "http" or "https"/],
    [{ nodes: [{ host: 'h', port: 8108, protocol: 'http', path: 'ts' }] }, /needs a path that is empty or starts with "\/"/],
    [{ nearestNode: { host: 'h' } }, /node "server.nearestNode" needs a port from 1 to 65535 \(got \{"host":"h"\}\)/],
    [{ protocol: 'ftp' }, /node "server" needs protocol "http" or "https"/],
  ])('refuses %j with a message naming the node and what it lacks', (server, message) => {
    const error = errorOf(() => readSearchServerSettings(withServer(server)));
    expect(error.code).toBe('missing-search-client');
    expect(error.message).toMatch(message);
  });
});
