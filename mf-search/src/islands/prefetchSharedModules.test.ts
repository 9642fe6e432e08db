import { describe, expect, it, vi } from 'vitest';
import { exposeAsyncFiles, prefetch, sharedModuleFiles } from './prefetchSharedModules.js';

const snapshot = (react: Record<string, { from: string; loaded?: boolean }>) => ({
  __INSTANCES__: [{ shareScopeMap: { default: { react, 'react-dom/client': { '19.3.1': { from: 'mf_watchlist' } } } } }],
  moduleInfo: {
    shell: {},
    'mf_watchlist:http://w.test/v/mf-manifest.json': {
      shared: [
        { sharedName: 'react', assets: { js: { sync: ['121.w.js'] } } },
        { sharedName: 'react-dom/client', assets: { js: { sync: ['275.w.js'] } } },
      ],
    },
    'mf_search:http://s.test/mf-manifest.json': { shared: [{ sharedName: 'react', assets: { js: { sync: ['121.s.js'] } } }] },
  },
});

describe('sharedModuleFiles', () => {
  it("lists the files of the copy the page's runtime will pick: the highest version's provider, next to its manifest", () => {
    expect(sharedModuleFiles(['react', 'react-dom/client'], snapshot({ '19.3.1': { from: 'mf_watchlist' }, '19.2.0': { from: 'mf_search' } }))).toEqual([
      'http://w.test/v/121.w.js',
      'http://w.test/v/275.w.js',
    ]);
    expect(sharedModuleFiles(['react'], snapshot({ '19.3.1': { from: 'mf_search' } }))).toEqual(['http://s.test/121.s.js']);
  });

  it('leaves out what is loaded already, and says nothing without a snapshot', () => {
    expect(sharedModuleFiles(['react'], snapshot({ '19.3.1': { from: 'mf_watchlist', loaded: true } }))).toEqual([]);
    expect(sharedModuleFiles(['react'], undefined)).toEqual([]);
    expect(sharedModuleFiles(['react'], { __INSTANCES__: [] })).toEqual([]);
  });
});

describe('exposeAsyncFiles', () => {
  const federation = {
    moduleInfo: {
      shell: {},
      'mf_search:http://s.test/v/mf-manifest.json': {
        modules: [
          { moduleName: 'HeaderSearch', assets: { js: { async: ['419.s.js'] } } },
          { moduleName: 'SearchList', assets: { js: { async: ['419.s.js', '__federation_expose_HeaderSearch.s.js', 'search-list-full.s.js'] } } },
        ],
      },
    },
  };

  it("lists the expose's later chunks next to its container's manifest, without other exposes' entries", () => {
    expect(exposeAsyncFiles('SearchList', federation)).toEqual(['http://s.test/v/419.s.js', 'http://s.test/v/search-list-full.s.js']);
  });

  it('says nothing for an expose the snapshot does not know, or without a snapshot', () => {
    expect(exposeAsyncFiles('Missing', federation)).toEqual([]);
    expect(exposeAsyncFiles('SearchList', undefined)).toEqual([]);
  });
});

describe('prefetch', () => {
  it('fetches each file once, as the later script request is made (no-cors, with credentials), and swallows failures', async () => {
    const fetchFile = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
      if (String(input).endsWith('b.js')) throw new TypeError('offline');
      return new Response('x');
    });
    prefetch(['http://p.test/a.js', 'http://p.test/b.js', 'http://p.test/a.js'], fetchFile as typeof fetch);
    prefetch(['http://p.test/a.js'], fetchFile as typeof fetch);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fetchFile.mock.calls.map(([input]) => input)).toEqual(['http://p.test/a.js', 'http://p.test/b.js']);
    expect(fetchFile.mock.calls[0]![1]).toMatchObject({ mode: 'no-cors', credentials: 'include', priority: 'low' });
  });
});
