import { describe, expect, it } from 'vitest';
import {
  CANARY_CACHE_CONTROL,
  LIVE_CHOICE,
  PREVIEW_CACHE_CONTROL,
  selectPageVersions,
  isBuildVersion,
  selectVersion,
  versionManifestUrl,
  type SelectionContext,
  type VersionSelectionPlugin,
} from './versionSelection.js';

function context(cookies: Record<string, string> = {}): SelectionContext {
  return { cookies, headers: {}, url: '/', now: 0, setCookie: () => {} };
}

/** A canary side for every remote in `remotes`, by a cookie. */
const canary = (remotes: string[]): VersionSelectionPlugin => ({
  name: 'test-canary',
  select: (request, remote, current) =>
    remotes.includes(remote) ? { version: request.cookies.side === 'canary' ? 'v2' : 'v1', reason: request.cookies.side === 'canary' ? 'canary' : 'stable', cacheable: false } : current,
});
const preview = (remote: string, version: string): VersionSelectionPlugin => ({
  name: 'test-preview',
  select: (request, candidate, current) => (candidate === remote && request.cookies.preview ? { version, reason: 'preview', cacheable: false } : current),
});

describe('version selection chain', () => {
  it('starts from the live build: no plugin, or none that chooses, renders live and shared-cacheable', () => {
    expect(selectVersion([], context(), 'mf-search')).toEqual(LIVE_CHOICE);
    expect(selectVersion([canary(['mf-survey'])], context(), 'mf-search')).toEqual({ version: null, reason: 'live', cacheable: true });
  });

  it('runs the plugins in order, each seeing the choice before it: a preview listed after the canary wins', () => {
    const chain = [canary(['mf-search']), preview('mf-search', 'v9')];
    expect(selectVersion(chain, context({ side: 'canary' }), 'mf-search')).toEqual({ version: 'v2', reason: 'canary', cacheable: false });
    expect(selectVersion(chain, context({ side: 'canary', preview: '1' }), 'mf-search')).toEqual({ version: 'v9', reason: 'preview', cacheable: false });
    const seen: string[] = [];
    const spy: VersionSelectionPlugin = { name: 'spy', select: (_request, _remote, current) => (seen.push(current.reason), current) };
    selectVersion([canary(['mf-search']), spy], context(), 'mf-search');
    expect(seen).toEqual(['stable']);
  });

  it('skips a plugin that throws and reports it: the page still renders with the choice before it', () => {
    const errors: string[] = [];
    const broken: VersionSelectionPlugin = { name: 'broken', select: () => { throw new Error('no rollout'); } };
    expect(selectVersion([preview('mf-search', 'v9'), broken], context({ preview: '1' }), 'mf-search', (plugin) => errors.push(plugin))).toMatchObject({
      version: 'v9',
      reason: 'preview',
    });
    expect(errors).toEqual(['broken']);
  });

  it('gives a page the strictest Cache-Control its choices need: a preview beats a canary, all-live needs none', () => {
    const chain = [canary(['mf-survey']), preview('mf-search', 'v9')];
    expect(selectPageVersions(chain, context(), ['mf-search']).cacheControl).toBeUndefined();
    expect(selectPageVersions(chain, context(), ['mf-search', 'mf-survey']).cacheControl).toBe(CANARY_CACHE_CONTROL);
    const both = selectPageVersions(chain, context({ preview: '1' }), ['mf-search', 'mf-survey']);
    expect(both.cacheControl).toBe(PREVIEW_CACHE_CONTROL);
    expect([...both.choices]).toEqual([
      ['mf-search', { version: 'v9', reason: 'preview', cacheable: false }],
      ['mf-survey', { version: 'v1', reason: 'stable', cacheable: false }],
    ]);
    // Order does not matter for the strictest one.
    expect(selectPageVersions(chain, context({ preview: '1' }), ['mf-survey', 'mf-search']).cacheControl).toBe(PREVIEW_CACHE_CONTROL);
  });

  it("names a build's own manifest beside the live one, and refuses anything that is no build version", () => {
    expect(versionManifestUrl('http://cdn.test/mf-search/mf-manifest.json', '0.1.0+1a2b3c')).toBe('http://cdn.test/mf-search/versions/0.1.0+1a2b3c/mf-manifest.json');
    for (const bad of ['../x', '0.1.0/../../etc', '', '.hidden', 'a b', '0.1..0', 'x'.repeat(200), 'v1?x=1', 'v1#x']) {
      expect(isBuildVersion(bad), bad).toBe(false);
      expect(() => versionManifestUrl('http://cdn.test/mf-manifest.json', bad)).toThrow(RangeError);
    }
  });
});
