import { describe, expect, it, vi } from 'vitest';
import type { ServerFederation } from './serverFederation.js';
import { ORIGIN, LIVE_URL, fakeOrigin, federationFor } from './versionsOrigin.testing.js';
import { ServerIslands } from './serverIslands.js';

async function renderedBy(federation: ServerFederation, version?: string | null): Promise<string> {
  const module = await federation.load('mf-hello', 'Hello', version);
  return (await module.render({}, {} as never)).html;
}

describe('ServerFederation: a build version per request', () => {
  it("renders a published version from its own folder's manifest, beside the live build, each under its own runtime name", async () => {
    const remote = fakeOrigin(['1.0.0+aaaa', '1.0.0+bbbb'], '1.0.0+aaaa');
    const federation = federationFor(remote);
    expect(await renderedBy(federation)).toBe('<p>1.0.0+aaaa</p>');
    expect(await renderedBy(federation, '1.0.0+bbbb')).toBe('<p>1.0.0+bbbb</p>');
    // The live build is untouched by the other one.
    expect(await renderedBy(federation)).toBe('<p>1.0.0+aaaa</p>');
    expect(remote.origin.fetched).toEqual([LIVE_URL, `${ORIGIN}versions/1.0.0+bbbb/mf-manifest.json`]);
    const names = remote.runtime.registrations.map((registration) => registration.name);
    expect(new Set(names).size).toBe(2);
    expect(remote.runtime.registrations[1]).toMatchObject({ entry: `${ORIGIN}versions/1.0.0+bbbb/mf-manifest.json`, force: false });
    // Its assets come from its own folder, and the page pins each build by its folder's manifest.
    expect(federation.stylesheets('mf-hello', 'Hello', '1.0.0+bbbb')).toEqual([`${ORIGIN}versions/1.0.0+bbbb/hello.1.0.0+bbbb.css`]);
    expect(federation.scripts('mf-hello', ['Hello'], '1.0.0+bbbb')).toEqual([`${ORIGIN}versions/1.0.0+bbbb/hello.1.0.0+bbbb.js`]);
    expect(federation.browserEntryUrl('mf-hello', '1.0.0+bbbb')).toBe(`${ORIGIN}versions/1.0.0+bbbb/remoteEntry.1.0.0+bbbb.js`);
    expect(federation.stylesheets('mf-hello', 'Hello')).toEqual([`${ORIGIN}versions/1.0.0+aaaa/hello.1.0.0+aaaa.css`]);
    expect(federation.pinnedManifestUrl('mf-hello')).toBe(`${ORIGIN}versions/1.0.0+aaaa/mf-manifest.json`);
    expect(federation.pinnedManifestUrl('mf-hello', '1.0.0+bbbb')).toBe(`${ORIGIN}versions/1.0.0+bbbb/mf-manifest.json`);
    expect(federation.buildKey('mf-hello', '1.0.0+bbbb')).not.toBe(federation.buildKey('mf-hello'));
    await federation.close();
  });

  it('asks for the live version by its number without loading it twice', async () => {
    const remote = fakeOrigin(['1.0.0+aaaa'], '1.0.0+aaaa');
    const federation = federationFor(remote);
    expect(await renderedBy(federation)).toBe('<p>1.0.0+aaaa</p>');
    expect(await renderedBy(federation, '1.0.0+aaaa')).toBe('<p>1.0.0+aaaa</p>');
    expect(remote.origin.fetched).toEqual([LIVE_URL]);
    expect(remote.runtime.loads).toHaveLength(1);
    expect(federation.buildKey('mf-hello', '1.0.0+aaaa')).toBe(federation.buildKey('mf-hello'));
    await federation.close();
  });

  it('keeps a bounded number of other builds, releasing the least recently used one that is not protected', async () => {
    const versions = ['1.0.0+a1', '1.0.0+a2', '1.0.0+a3', '1.0.0+a4'];
    const remote = fakeOrigin(['1.0.0+live', ...versions], '1.0.0+live');
    const federation = federationFor(remote, { maxPinnedVersions: 2, protectedVersions: () => ['1.0.0+a1'] });
    await renderedBy(federation, '1.0.0+a1');
    await renderedBy(federation, '1.0.0+a2');
    await renderedBy(federation, '1.0.0+a3');
    // a1 is the least recently used, but protected (a canary's side): a2 goes.
    expect(federation.pinnedVersions('mf-hello')).toEqual(['1.0.0+a1', '1.0.0+a3']);
    await renderedBy(federation, '1.0.0+a3');
    await renderedBy(federation, '1.0.0+a4');
    expect(federation.pinnedVersions('mf-hello')).toEqual(['1.0.0+a1', '1.0.0+a4']);
    await vi.waitFor(() => expect(remote.disposed.sort()).toEqual(['1.0.0+a2', '1.0.0+a3']));
    // An evicted build loads again when asked for, registered again over its old name.
    expect(await renderedBy(federation, '1.0.0+a2')).toBe('<p>1.0.0+a2</p>');
    expect(remote.runtime.registrations.at(-1)).toMatchObject({ force: true });
    await federation.close();
  });

  it('fails a version that is not published (not kept: it loads once published) and refuses what is no build version', async () => {
    const remote = fakeOrigin(['1.0.0+live'], '1.0.0+live');
    const federation = federationFor(remote);
    await expect(renderedBy(federation, '1.0.0+next')).rejects.toMatchObject({ name: 'ServerIslandError', stage: 'manifest', code: 'KHS-ISLAND-001' });
    expect(federation.pinnedVersions('mf-hello')).toEqual([]);
    remote.origin.published.add('1.0.0+next');
    expect(await renderedBy(federation, '1.0.0+next')).toBe('<p>1.0.0+next</p>');
    const fetchesBefore = remote.origin.fetched.length;
    await expect(renderedBy(federation, '../../etc')).rejects.toMatchObject({ stage: 'manifest' });
    expect(remote.origin.fetched).toHaveLength(fetchesBefore);
    await federation.close();
  });

  it('disposes every loaded build, live and pinned, on close', async () => {
    const remote = fakeOrigin(['1.0.0+live', '1.0.0+other'], '1.0.0+live');
    const federation = federationFor(remote, { disposeDelayMs: 60_000 });
    await renderedBy(federation);
    await renderedBy(federation, '1.0.0+other');
    await federation.close();
    expect(remote.disposed.sort()).toEqual(['1.0.0+live', '1.0.0+other']);
  });

  it("renders a page's islands at the versions chosen for its request, with that build's styles and scripts, never reusing another build's render", async () => {
    const remote = fakeOrigin(['1.0.0+live', '1.0.0+next'], '1.0.0+live');
    const federation = federationFor(remote);
    const islands = new ServerIslands({ federation, budgetMs: 1000 });
    const requests = [{ name: 'mf-hello/Hello', props: {} }];
    const page = { config: {} as never, url: '/' };
    const live = await islands.renderAll(requests, page);
    const chosen = await islands.renderAll(requests, { ...page, versions: new Map([['mf-hello', '1.0.0+next']]) });
    expect(live.map((outcome) => outcome.ok && outcome.result.html)).toEqual(['<p>1.0.0+live</p>']);
    expect(chosen.map((outcome) => outcome.ok && outcome.result.html)).toEqual(['<p>1.0.0+next</p>']);
    const versions = new Map([['mf-hello', '1.0.0+next']]);
    expect(islands.stylesheets(requests, versions)).toEqual([`${ORIGIN}versions/1.0.0+next/hello.1.0.0+next.css`]);
    expect(islands.firstViewScripts(requests, versions)).toEqual([`${ORIGIN}versions/1.0.0+next/hello.1.0.0+next.js`]);
    expect(islands.stylesheets(requests)).toEqual([`${ORIGIN}versions/1.0.0+live/hello.1.0.0+live.css`]);
    await federation.close();
  });

  it('warms a build up before a preview opens: every module its server build exposes is loaded', async () => {
    const remote = fakeOrigin(['1.0.0+live', '1.0.0+next'], '1.0.0+live');
    const federation = federationFor(remote);
    await federation.preloadVersion('mf-hello', '1.0.0+next');
    // The live build starts first (the other build's chunks resolve through it), then the preview's.
    expect(remote.runtime.loads).toEqual(['mf_hello/Hello', expect.stringMatching(/^mf_hello__v[0-9a-f]{12}\/Hello$/)]);
    expect(federation.pinnedVersions('mf-hello')).toEqual(['1.0.0+next']);
    // The render that follows uses what was loaded.
    expect(await renderedBy(federation, '1.0.0+next')).toBe('<p>1.0.0+next</p>');
    expect(remote.runtime.loads).toHaveLength(2);
    await expect(federation.preloadVersion('mf-hello', '1.0.0+missing')).rejects.toMatchObject({ stage: 'manifest' });
    await expect(federation.preloadVersion('mf-nope', '1.0.0+next')).rejects.toMatchObject({ stage: 'manifest' });
    await federation.close();
  });

  it('starts the builds of one remote one at a time (each must create its own federation instance), then loads freely', async () => {
    const remote = fakeOrigin(['1.0.0+live', '1.0.0+next'], '1.0.0+live');
    const events: string[] = [];
    const loadRemote = remote.runtime.loadRemote.bind(remote.runtime);
    remote.runtime.loadRemote = async <T,>(id: string): Promise<T | null> => {
      events.push(`start ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const loaded = await loadRemote<T>(id);
      events.push(`end ${id}`);
      return loaded;
    };
    const federation = federationFor(remote);
    await Promise.all([renderedBy(federation), renderedBy(federation, '1.0.0+next')]);
    expect(events.map((event) => event.split(' ')[0])).toEqual(['start', 'end', 'start', 'end']);
    await federation.close();
  });
});
