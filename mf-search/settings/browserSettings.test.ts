import { POPULARITY_SORT_BY } from 'contracts';
import { readBrowserSettings as readAllBrowserSettings } from '@khs/stack/browser-settings';
import { describe, expect, it } from 'vitest';
import { readBrowserSettings } from './browserSettings.js';

/** The problems `readBrowserSettings` lists for `env`. */
const problemsOf = (env: Record<string, string>) => readBrowserSettings(env).problems.join('\n');
const serverOf = (env: Record<string, string>) => readBrowserSettings(env).pageConfig.search.server;

describe("the search slice's browser settings: the shell started alone, no search server of its own", () => {
  it('without TYPESENSE_HOST/TYPESENSE_NODES points browsers at 127.0.0.1:8108 and says how to point it at a server', () => {
    const settings = readBrowserSettings({});
    expect(settings.problems).toEqual([]);
    expect(settings.pageConfig.search.server).toEqual({ apiKey: 'khs-search-dev-key', host: '127.0.0.1', port: 8108, protocol: 'http', indexName: 'competence-articles' });
    expect(settings.connectOrigins).toEqual(['http://127.0.0.1:8108']);
    const [notice] = settings.notices;
    expect(notice).toContain('no search server configured (TYPESENSE_HOST or TYPESENSE_NODES)');
    expect(notice).toContain('npm start -w @khs/search-engine');
    expect(notice).toContain('set TYPESENSE_HOST/TYPESENSE_PORT (TYPESENSE_NODES for a cluster)');
  });

  it('says nothing when a server or a cluster is configured, and points browsers at it', () => {
    const single = readBrowserSettings({ TYPESENSE_HOST: 'search.internal', TYPESENSE_PORT: '9108', TYPESENSE_PROTOCOL: 'https', SEARCH_INDEX_NAME: 'articles-v2' });
    expect(single.notices).toEqual([]);
    expect(single.pageConfig.search.server).toMatchObject({ host: 'search.internal', port: 9108, protocol: 'https', indexName: 'articles-v2' });
    expect(readBrowserSettings({ TYPESENSE_NODES: 'http://ts-1:8108,http://ts-2:8108' }).notices).toEqual([]);
  });

  it('gives browsers the search-only key, never the admin key', () => {
    const adminKey = 'admin-key-the-shell-must-not-hold-0123456789';
    const settings = readBrowserSettings({ TYPESENSE_HOST: '127.0.0.1', TYPESENSE_API_KEY: adminKey, TYPESENSE_SEARCH_API_KEY: 'search-only-key' });
    expect(JSON.stringify(settings)).not.toContain(adminKey);
    expect(settings.pageConfig.search.server.apiKey).toBe('search-only-key');
  });
});

describe("the site's search sort (SEARCH_POPULARITY)", () => {
  const sortBy = (env: Record<string, string>) => readBrowserSettings(env).pageConfig.search.sortBy;

  it('is relevance alone by default and with off', () => {
    expect(sortBy({})).toBe('');
    expect(sortBy({ SEARCH_POPULARITY: 'off' })).toBe('');
  });

  it('puts popularity after text match when on', () => {
    expect(sortBy({ SEARCH_POPULARITY: 'on' })).toBe('_text_match:desc,popularity:desc');
    expect(POPULARITY_SORT_BY).toBe('_text_match:desc,popularity:desc');
  });

  it('refuses another value, naming the variable', () => {
    expect(problemsOf({ SEARCH_POPULARITY: 'sometimes' })).toContain('SEARCH_POPULARITY must be on or off, got "sometimes"');
  });
});

describe('search cluster settings (TYPESENSE_NODES, TYPESENSE_NEAREST_NODE)', () => {
  it('has no cluster by default: one node (TYPESENSE_HOST or the embedded server)', () => {
    expect(serverOf({ TYPESENSE_HOST: 'ts.internal' })).not.toHaveProperty('nodes');
    expect(serverOf({ TYPESENSE_HOST: 'ts.internal' })).not.toHaveProperty('nearestNode');
  });

  it('gives browsers every node (the first repeated in host/port/protocol for older remotes) and the nearest node, and lets pages fetch from them', () => {
    const settings = readBrowserSettings({
      TYPESENSE_NODES: 'http://ts-1:8108,http://ts-2:8108',
      TYPESENSE_NEAREST_NODE: 'http://ts-lb:8108',
      SEARCH_BROWSER_NODES: 'https://s1.example,https://s2.example:8443',
    });
    expect(settings.pageConfig.search.server).toMatchObject({
      host: 's1.example',
      port: 443,
      protocol: 'https',
      nodes: [
        { host: 's1.example', port: 443, protocol: 'https' },
        { host: 's2.example', port: 8443, protocol: 'https' },
      ],
      nearestNode: { host: 'ts-lb', port: 8108, protocol: 'http' },
    });
    expect(settings.connectOrigins).toEqual(['https://s1.example', 'https://s2.example:8443', 'http://ts-lb:8108']);
  });

  it('reads the nearest node as browsers reach it', () => {
    const server = serverOf({
      TYPESENSE_NODES: 'http://ts-1:8108,http://ts-2:8108,http://ts-3:8108',
      TYPESENSE_NEAREST_NODE: 'https://xyz.a1.typesense.net',
      SEARCH_BROWSER_NODES: 'https://ts-1.example,https://ts-2.example,https://ts-3.example',
      SEARCH_BROWSER_NEAREST_NODE: 'https://search.example',
    });
    expect(server.nodes!.map((node) => node.host)).toEqual(['ts-1.example', 'ts-2.example', 'ts-3.example']);
    expect(server.nearestNode).toEqual({ host: 'search.example', port: 443, protocol: 'https' });
  });

  it('accepts TYPESENSE_HOST/PORT next to TYPESENSE_NODES when they name one of the nodes (as the stack starter sets them)', () => {
    const settings = readBrowserSettings({ TYPESENSE_NODES: 'http://a:8108,http://b:9108', TYPESENSE_HOST: 'b', TYPESENSE_PORT: '9108' });
    expect(settings.problems).toEqual([]);
    expect(settings.pageConfig.search.server.nodes).toHaveLength(2);
  });

  it('keeps one node as it was: no nodes in the page config, one search origin', () => {
    const settings = readBrowserSettings({ TYPESENSE_HOST: 'ts.internal', SEARCH_BROWSER_HOST: 'search.example' });
    expect(settings.pageConfig.search.server).toEqual({ apiKey: 'khs-search-dev-key', host: 'search.example', port: 8108, protocol: 'http', indexName: 'competence-articles' });
    expect(settings.connectOrigins).toEqual(['http://search.example:8108']);
  });

  it.each([
    [{ TYPESENSE_PROTOCOL: 'ftp' }, 'TYPESENSE_PROTOCOL must be http or https, got "ftp"'],
    [{ TYPESENSE_PORT: 'eighty' }, 'TYPESENSE_PORT'],
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

describe('as the shell reads it: declared in the manifest, run by @khs/stack/browser-settings', () => {
  it("fills the page config's search and the CSP's origins, and names the slice in each problem", async () => {
    const settings = await readAllBrowserSettings({ TYPESENSE_HOST: 'ts.internal' });
    expect(settings.pageConfig).toEqual({ search: readBrowserSettings({ TYPESENSE_HOST: 'ts.internal' }).pageConfig.search });
    expect(settings.connectOrigins).toEqual(['http://ts.internal:8108']);
    expect((await readAllBrowserSettings({ TYPESENSE_PROTOCOL: 'ftp' })).problems).toEqual(['TYPESENSE_PROTOCOL must be http or https, got "ftp" (mf-search)']);
  });
});
