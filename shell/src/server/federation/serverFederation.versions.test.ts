import { describe, expect, it, vi } from 'vitest';
import { CONTRACTS_VERSION, ISLAND_API_VERSION, type IslandServerModule } from 'contracts';
import { ServerFederation, type FederationRuntime } from './serverFederation.js';
import { ServerIslands } from './serverIslands.js';

const ORIGIN = 'http://remote.test/mf-hello/';
const LIVE_URL = `${ORIGIN}mf-manifest.json`;

function manifest(version: string, folder = ''): string {
  return JSON.stringify({
    metaData: {
      publicPath: 'auto',
      buildVersion: version,
      remoteEntry: { path: folder, name: `remoteEntry.${version}.js` },
      ssrRemoteEntry: { path: `${folder}server/`, name: 'remoteEntry.js' },
      serverExposes: ['Hello'],
      contractsVersion: CONTRACTS_VERSION,
    },
    exposes: [{ name: 'Hello', assets: { css: { sync: [`${folder}hello.${version}.css`] }, js: { sync: [`${folder}hello.${version}.js`] } }, requires: ['react-dom/client'] }],
  });
}

/**
 * An origin as tooling/deploy leaves it: the live manifest (pointing into its version's folder)
 * and every published build's own manifest in `versions/<v>/`; a runtime whose modules render
 * the version of the manifest they were registered with.
 */
function fakeOrigin(published: string[], live: string) {
  const origin = { live, published: new Set(published), fetched: [] as string[] };
  const fetchFake = vi.fn(async (url: string | URL | Request) => {
    const href = String(url);
    origin.fetched.push(href);
    if (href === LIVE_URL) return new Response(manifest(origin.live, `versions/${origin.live}/`));
    const match = /\/versions\/([^/]+)\/mf-manifest\.json$/.exec(href);
    if (match && origin.published.has(match[1]!)) return new Response(manifest(match[1]!));
    return new Response('Not Found', { status: 404 });
  }) as unknown as typeof fetch;
  const disposed: string[] = [];
  const registered = new Map<string, string>();
  const runtime = {
    registrations: [] as { name: string; entry: string; force: boolean | undefined }[],
    loads: [] as string[],
    registerRemotes(remotes: { name: string; entry: string }[], options?: { force?: boolean }) {
      for (const remote of remotes) {
        runtime.registrations.push({ name: remote.name, entry: remote.entry, force: options?.force });
        registered.set(remote.name, remote.entry);
      }
    },
    async loadRemote<T>(id: string): Promise<T | null> {
      runtime.loads.push(id);
      const entry = registered.get(id.split('/')[0]!)!;
      // Like the real runtime: the build is whatever the registered manifest URL holds now.
      const version = entry === LIVE_URL ? origin.live : /versions\/([^/]+)\//.exec(entry)![1]!;
      const module: IslandServerModule = {
        islandApiVersion: ISLAND_API_VERSION,
        render: async () => ({ html: `<p>${version}</p>` }),
        dispose: () => void disposed.push(version),
      };
      return module as T;
    },
  };
  const _typed: FederationRuntime = runtime;
  return { origin, fetchFake, runtime, disposed };
}

function federationFor(remote: ReturnType<typeof fakeOrigin>, extra: Partial<ConstructorParameters<typeof ServerFederation>[0]> = {}) {
  return new ServerFederation({
    remotes: [{ name: 'mf-hello', entry: LIVE_URL }],
    runtime: remote.runtime,
    hopTimeoutMs: 500,
    disposeDelayMs: 1,
    fetch: remote.fetchFake,
    log: { error: () => {}, info: () => {} },
    ...extra,
  });
}

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
});
