import { describe, expect, it } from 'vitest';
import { buildShellApp } from '../app.js';
import { readShellConfig, ShellConfigError } from '../config.js';
import { repositoryContentStore } from '../content/contentStore.js';
import { browserSearchOrigins, buildPageConfig } from '../pageConfig.js';
import { browserSearchEndpoint } from './searchEndpoint.js';
import { parseSearchNodes } from '@khs/search-nodes';

/** The problems `readShellConfig` lists for `env` (fails the test when it accepts it). */
function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    readShellConfig(env);
  } catch (error) {
    if (error instanceof ShellConfigError) return error.problems.join('\n');
    throw error;
  }
  throw new Error('expected a ShellConfigError');
}

describe('search cluster settings (TYPESENSE_NODES, TYPESENSE_NEAREST_NODE)', () => {
  it('reads node URLs with their ports (default the protocol\'s) and paths', () => {
    expect(parseSearchNodes('TYPESENSE_NODES', ' http://ts-1:8108 , https://ts-2.example, https://lb.example/typesense/ ')).toEqual({
      nodes: [
        { host: 'ts-1', port: 8108, protocol: 'http' },
        { host: 'ts-2.example', port: 443, protocol: 'https' },
        { host: 'lb.example', port: 443, protocol: 'https', path: '/typesense' },
      ],
    });
    expect(parseSearchNodes('TYPESENSE_NODES', undefined)).toEqual({ nodes: [] });
  });

  it('has no cluster by default: one node (TYPESENSE_HOST or the embedded server)', () => {
    expect(readShellConfig({}).search).toMatchObject({ nodes: undefined, nearestNode: undefined, browserNodes: undefined, browserNearestNode: undefined });
  });

  it('reads the cluster, its nearest node and how browsers reach them', () => {
    const { search } = readShellConfig({
      TYPESENSE_NODES: 'http://ts-1:8108,http://ts-2:8108,http://ts-3:8108',
      TYPESENSE_NEAREST_NODE: 'https://xyz.a1.typesense.net',
      SEARCH_BROWSER_NODES: 'https://ts-1.example,https://ts-2.example,https://ts-3.example',
      SEARCH_BROWSER_NEAREST_NODE: 'https://search.example',
    });
    expect(search.nodes!.map((node) => `${node.host}:${node.port}`)).toEqual(['ts-1:8108', 'ts-2:8108', 'ts-3:8108']);
    expect(search.nearestNode).toEqual({ host: 'xyz.a1.typesense.net', port: 443, protocol: 'https' });
    expect(search.browserNodes!.map((node) => node.host)).toEqual(['ts-1.example', 'ts-2.example', 'ts-3.example']);
    expect(search.browserNearestNode).toEqual({ host: 'search.example', port: 443, protocol: 'https' });
  });

  it('accepts TYPESENSE_HOST/PORT next to TYPESENSE_NODES when they name one of the nodes (as the stack starter sets them)', () => {
    expect(readShellConfig({ TYPESENSE_NODES: 'http://a:8108,http://b:9108', TYPESENSE_HOST: 'b', TYPESENSE_PORT: '9108' }).search.nodes).toHaveLength(2);
  });

  it.each([
    [{ TYPESENSE_NODES: 'ts-1:8108' }, 'TYPESENSE_NODES must list http(s) URLs of search nodes (comma-separated, e.g. http://ts-1:8108), got "ts-1:8108"'],
    [{ TYPESENSE_NODES: 'http://a:8108,ftp://b:8108' }, 'got "ftp://b:8108"'],
    [{ TYPESENSE_NODES: 'http://a:8108?x=1' }, 'got "http://a:8108?x=1"'],
    [{ TYPESENSE_NODES: 'http://a:8108', TYPESENSE_NEAREST_NODE: 'http://lb1,http://lb2' }, 'TYPESENSE_NEAREST_NODE must be one URL, got 2'],
    [{ TYPESENSE_NEAREST_NODE: 'http://lb:8108' }, 'TYPESENSE_NEAREST_NODE needs TYPESENSE_NODES (or TYPESENSE_HOST)'],
    [{ TYPESENSE_NODES: 'http://a:8108', TYPESENSE_HOST: 'c' }, 'TYPESENSE_HOST/TYPESENSE_PORT (c:8108) is not one of TYPESENSE_NODES (http://a:8108): set them to one of the nodes'],
    [{ TYPESENSE_NODES: 'http://a:8108', SEARCH_BROWSER_HOST: 'search.example' }, 'SEARCH_BROWSER_HOST is for one node; with TYPESENSE_NODES set SEARCH_BROWSER_NODES'],
    [{ SEARCH_BROWSER_NODES: 'http://a:8108' }, 'SEARCH_BROWSER_NODES needs TYPESENSE_NODES'],
    [{ TYPESENSE_NODES: 'http://a:8108', SEARCH_BROWSER_NEAREST_NODE: 'http://lb' }, 'SEARCH_BROWSER_NEAREST_NODE needs TYPESENSE_NEAREST_NODE'],
  ])('refuses %j, saying why', (env, problem) => {
    expect(problemsOf(env)).toContain(problem);
  });
});

describe('the page config and CSP of a cluster', () => {
  it('gives browsers every node (the first repeated in host/port/protocol for older remotes) and the nearest node', async () => {
    const config = readShellConfig({
      TYPESENSE_NODES: 'http://ts-1:8108,http://ts-2:8108',
      TYPESENSE_NEAREST_NODE: 'http://ts-lb:8108',
      SEARCH_BROWSER_NODES: 'https://s1.example,https://s2.example:8443',
    });
    const browser = browserSearchEndpoint(config);
    const { server } = buildPageConfig(config, browser).search;
    expect(server).toMatchObject({
      host: 's1.example',
      port: 443,
      protocol: 'https',
      nodes: [
        { host: 's1.example', port: 443, protocol: 'https' },
        { host: 's2.example', port: 8443, protocol: 'https' },
      ],
      nearestNode: { host: 'ts-lb', port: 8108, protocol: 'http' },
    });
    expect(browserSearchOrigins(browser)).toEqual(['https://s1.example', 'https://s2.example:8443', 'http://ts-lb:8108']);
  });

  it('lets pages fetch from every browser node and the nearest node (CSP connect-src), and answers /health', async () => {
    const config = readShellConfig({ TYPESENSE_NODES: 'http://ts-1:8108,http://ts-2:8108', TYPESENSE_NEAREST_NODE: 'https://lb.example' });
    const { app } = await buildShellApp({ config, content: repositoryContentStore, search: browserSearchEndpoint(config), features: [] });
    try {
      const page = await app.inject({ method: 'GET', url: '/' });
      const connectSrc = /connect-src ([^;]*)/.exec(String(page.headers['content-security-policy']))?.[1]?.split(' ');
      expect(connectSrc).toEqual(expect.arrayContaining(['http://ts-1:8108', 'http://ts-2:8108', 'https://lb.example']));
      const health = await app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });

  it('keeps one node as it was: no nodes in the page config, one search origin', async () => {
    const config = readShellConfig({ TYPESENSE_HOST: 'ts.internal', SEARCH_BROWSER_HOST: 'search.example' });
    const browser = browserSearchEndpoint(config);
    const { server } = buildPageConfig(config, browser).search;
    expect(server).toEqual({ apiKey: 'khs-search-dev-key', host: 'search.example', port: 8108, protocol: 'http', indexName: 'competence-articles' });
    expect(browserSearchOrigins(browser)).toEqual(['http://search.example:8108']);
  });
});

