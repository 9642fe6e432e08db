import { describe, expect, it } from 'vitest';
import { parseSearchNodes, searchNodeOrigin, searchNodeSettingsFromEnv, searchNodeUrl } from './index.mjs';

describe('search node settings', () => {
  it('reads a node list with default ports and a path prefix, and names bad entries', () => {
    expect(parseSearchNodes('TYPESENSE_NODES', 'http://ts-1:8108, https://ts-2.example/search/')).toEqual({
      nodes: [
        { host: 'ts-1', port: 8108, protocol: 'http' },
        { host: 'ts-2.example', port: 443, protocol: 'https', path: '/search' },
      ],
    });
    expect(parseSearchNodes('TYPESENSE_NODES', 'ftp://x,http://u:p@h:1').problem).toBe(
      'TYPESENSE_NODES must list http(s) URLs of search nodes (comma-separated, e.g. http://ts-1:8108), got "ftp://x", "http://u:p@h:1"',
    );
    expect(parseSearchNodes('TYPESENSE_NODES', ' ')).toEqual({ nodes: [] });
  });

  it('gives a node its base URL and its origin', () => {
    const node = { host: 'ts-2.example', port: 443, protocol: 'https' as const, path: '/search' };
    expect(searchNodeUrl(node)).toBe('https://ts-2.example:443/search');
    expect(searchNodeOrigin(node)).toBe('https://ts-2.example');
  });

  it('takes the nodes and nearest node from the environment, else the one host/port/protocol', () => {
    expect(searchNodeSettingsFromEnv({ TYPESENSE_NODES: 'http://a:1,http://b:2', TYPESENSE_NEAREST_NODE: 'http://lb:3' })).toEqual({
      nodes: [
        { host: 'a', port: 1, protocol: 'http' },
        { host: 'b', port: 2, protocol: 'http' },
      ],
      nearestNode: { host: 'lb', port: 3, protocol: 'http' },
    });
    expect(searchNodeSettingsFromEnv({ TYPESENSE_HOST: 'ts', TYPESENSE_PORT: '9000', TYPESENSE_PROTOCOL: 'https' })).toEqual({ nodes: [{ host: 'ts', port: 9000, protocol: 'https' }] });
    expect(searchNodeSettingsFromEnv({})).toEqual({ nodes: [{ host: '127.0.0.1', port: 8108, protocol: 'http' }] });
  });

  it('refuses bad settings, naming every bad variable', () => {
    expect(() => searchNodeSettingsFromEnv({ TYPESENSE_NODES: 'nope', TYPESENSE_NEAREST_NODE: 'http://a:1,http://b:2' })).toThrow(
      /TYPESENSE_NODES must list .*"nope".*; TYPESENSE_NEAREST_NODE must be one URL, got 2/,
    );
  });
});
