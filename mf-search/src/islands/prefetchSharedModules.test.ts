import { describe, expect, it } from 'vitest';
import { sharedModuleFiles } from './prefetchSharedModules.js';

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
